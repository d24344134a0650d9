// Message catalogues, one set per language: js/messages/<lang>.js holds the strings every
// page shares, and js/messages/<lang>/<game-id>.js each game's own (its table, its log
// lines, its lobby options), loaded by loadGameMessages(id) before a page shows that game.
// A new game adds its own file; no shared catalogue changes. English is complete and the
// fallback for any missing key. t("key", {name: "x"}) fills {name} placeholders.
// Plurals: a message may be an object of CLDR plural forms, {one: "{n} die", other: "{n} dice"}
// (any of zero/one/two/few/many/other); t("key", {count: n}) picks the form with
// Intl.PluralRules for the page's language, falling back to "other" (a call that passes
// only {n} counts by n). {count} and {n} both fill with the count unless {n} is given too.
import en from "./messages/en.js";

const catalogues = { en: { ...en } };
let lang = "en";
let current = catalogues.en;
const loading = new Map(); // "<lang>/<game-id>" -> the promise of its catalogue

export function setLanguage(wanted) {
  const base = (wanted || "en").toLowerCase().split("-")[0];
  lang = catalogues[base] ? base : "en";
  current = catalogues[lang];
  document.documentElement.lang = lang;
}

function loadOne(language, gameId) {
  const key = `${language}/${gameId}`;
  if (!loading.has(key)) {
    loading.set(key, import(`./messages/${key}.js`)
      .then((module) => Object.assign(catalogues[language], module.default))
      .catch(() => {})); // no strings of its own (yet): keys show as the fallbacks say
  }
  return loading.get(key);
}

/** Load game `gameId`'s messages (English, and the page's language); resolves when done. */
export function loadGameMessages(gameId) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(String(gameId || ""))) return Promise.resolve();
  return Promise.all([...new Set(["en", lang])].map((language) => loadOne(language, gameId)));
}

export function t(key, params = {}) {
  let text = current[key] ?? catalogues.en[key];
  if (text === undefined) {
    console.warn("missing message", key);
    return key;
  }
  if (typeof text === "function") return text(params);
  if (typeof text === "object" && text !== null) text = pluralForm(text, params.count ?? params.n);
  if ("count" in params && !("n" in params)) params = { ...params, n: params.count };
  return String(text).replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

const pluralRules = new Map(); // lang -> Intl.PluralRules

/** The form of plural message `forms` ({one, other, ...}) for `count` in the page's language. */
function pluralForm(forms, count) {
  let category = "other";
  const n = Number(count);
  if (Number.isFinite(n)) {
    if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
    category = pluralRules.get(lang).select(n);
  }
  return forms[category] ?? forms.other ?? "";
}

/** t() for a key that may not exist: the fallback text instead of a warning. */
export function tOr(key, fallback, params = {}) {
  return key in current || key in catalogues.en ? t(key, params) : fallback;
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
