// One message catalogue per language (js/messages/<lang>.js); English is complete and the
// fallback for any missing key. t("key", {name: "x"}) fills {name} placeholders.
import en from "./messages/en.js";

const catalogues = { en };
let current = en;

export function setLanguage(lang) {
  const base = (lang || "en").toLowerCase().split("-")[0];
  current = catalogues[base] || en;
  document.documentElement.lang = catalogues[base] ? base : "en";
}

export function t(key, params = {}) {
  let text = current[key] ?? en[key];
  if (text === undefined) {
    console.warn("missing message", key);
    return key;
  }
  if (typeof text === "function") return text(params);
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

/** t() for a key that may not exist: the fallback text instead of a warning. */
export function tOr(key, fallback, params = {}) {
  return key in current || key in en ? t(key, params) : fallback;
}

/** Fill every [data-i18n] element's text (and [data-i18n-label] aria-labels) on a page. */
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
}

setLanguage(navigator.language);
