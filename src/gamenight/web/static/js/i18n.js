// Message catalogues, one set per language: js/messages/<lang>.js holds the strings every
// page shares, and js/messages/<lang>/<game-id>.js each game's own (its table, its log
// lines, its lobby options), loaded by loadGameMessages(id) before a page shows that game.
// The game vocabulary both front ends show (game, event, combination and box names, lobby
// option names) is not here: it comes from the server, GET /api/vocabulary/<lang>/<game-id>
// (gamenight.core.vocabulary), merged in by loadGameMessages.
// A new game adds its own files; no shared catalogue changes. English is complete and the
// fallback for any missing key. t("key", {name: "x"}) fills {name} placeholders; a number
// placeholder is written with Intl.NumberFormat in the page's language (no grouping below
// 10 000, so years stay 1985).
// Plurals: a message may be an object of CLDR plural forms, {one: "{n} die", other: "{n} dice"}
// (any of zero/one/two/few/many/other); t("key", {count: n}) picks the form with
// Intl.PluralRules for the page's language, falling back to "other" (a call that passes
// only {n} counts by n). {count} and {n} both fill with the count unless {n} is given too.
//
// The page's language: ?lang=<code> in the address, else the one remembered in localStorage
// (the switcher, "gamenight.lang"), else <html lang> as the server negotiated it from the
// browser's Accept-Language (gamenight.core.languages.negotiate), else English. The
// switcher (every page's top bar) lists GET /api/languages (the endonyms of
// gamenight.core.languages.NAMES); choosing one remembers it and reloads the page with
// ?lang=, which keeps the game: the seat is in localStorage, the replay step in the address
// (and the server renders the rules page in it).
import en from "./messages/en.js";
import installed from "./games/installed.js";

const STORE_KEY = "gamenight.lang";
const CODE = /^[a-z]{2,3}$/; // a catalogue's file name; anything else is never imported

const catalogues = { en: { ...en } };
let lang = "en";
let current = catalogues.en;
const loading = new Map(); // "<lang>/<game-id>" -> the promise of its catalogue

function remembered() {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null; // storage blocked: the server's choice
  }
}

function remember(code) {
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // storage blocked: the choice lasts for this page only
  }
}

function wanted() {
  const asked = new URLSearchParams(location.search).get("lang");
  const base = (code) => String(code || "").toLowerCase().split(/[-_]/)[0];
  if (asked && CODE.test(base(asked))) {
    remember(base(asked));
    return base(asked);
  }
  for (const code of [remembered(), document.documentElement.lang]) {
    if (code && CODE.test(base(code))) return base(code);
  }
  return "en";
}

async function shared(code) {
  if (code === "en") return true;
  try {
    catalogues[code] = { ...(await import(`./messages/${code}.js`)).default };
    return true;
  } catch {
    return false; // no such catalogue: English
  }
}

/** The page's language ("en", "de", "pl"). */
export function language() {
  return lang;
}

export function setLanguage(code) {
  lang = catalogues[code] ? code : "en";
  current = catalogues[lang];
  document.documentElement.lang = lang;
  numbers = null;
}

function loadOne(language, gameId) {
  const key = `${language}/${gameId}`;
  // installed.js names the files a game has (the server made it from the registry): a
  // game without one in this language is asked for nothing, so no 404 in any room
  const own = Object.hasOwn(installed, gameId) ? installed[gameId].messages || {} : {};
  const path = Object.hasOwn(own, language) ? own[language] : null;
  if (!path && LISTED.has(language)) return Promise.resolve();
  if (!loading.has(key)) {
    const url = path ? new URL(path, new URL("../", import.meta.url)).href : `./messages/${key}.js`;
    loading.set(key, import(url)
      .then((module) => Object.assign(catalogues[language], module.default))
      .catch(() => {})); // unreadable: keys show as the fallbacks say
  }
  return loading.get(key);
}

// The languages installed.js lists files of: for these it is the whole truth; a game's
// file in any other (one the server does not ship, like the tests' pseudo-locale, which
// the page is handed another way) is asked for by its name
const LISTED = new Set(Object.values(installed).flatMap((game) => Object.keys(game.messages || {})));

function loadVocabulary(language, gameId) {
  const key = `vocabulary/${language}/${gameId}`;
  if (!loading.has(key)) {
    loading.set(key, fetch(`/api/${key}`)
      .then((response) => (response.ok ? response.json() : {}))
      .then((words) => Object.assign(catalogues[language], words))
      .catch(() => {})); // offline or unknown: the keys' fallbacks
  }
  return loading.get(key);
}

/** Load game `gameId`'s messages and vocabulary (English, and the page's language). */
export function loadGameMessages(gameId) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(String(gameId || ""))) return Promise.resolve();
  const langs = [...new Set(["en", lang])];
  return Promise.all([
    ...langs.map((language) => loadOne(language, gameId)),
    // the vocabulary of a language has every key (English where untranslated); the English
    // one too, so that a name the server sends in English can be found (englishKey)
    ...langs.map((language) => loadVocabulary(language, gameId)),
  ]);
}

/** The key under `prefix` whose English text is `text` (a game's name for a thing that
 * the server's English sentence quotes, e.g. a box), or null. */
export function englishKey(prefix, text) {
  for (const [key, value] of Object.entries(catalogues.en)) {
    if (key.startsWith(prefix) && value === text) return key;
  }
  return null;
}

let numbers = null; // Intl.NumberFormat of the page's language

/** A number as the page's language writes it (1,5 in German; no grouping below 10 000). */
export function formatNumber(n, options = {}) {
  if (!Object.keys(options).length) {
    numbers ??= new Intl.NumberFormat(lang, { useGrouping: "min2", maximumFractionDigits: 3 });
    return numbers.format(n);
  }
  return new Intl.NumberFormat(lang, { useGrouping: "min2", ...options }).format(n);
}

/** A chance (0..1) as a percentage with `places` decimals: "62%" ("62 %" in German). One
 * that is neither 0 nor 1 but would round to either reads "<1%" or ">99%" ("<0.1%" with one
 * place), so "0%" and "100%" mean impossible and certain. The terminal writes chances by
 * the same rule and rounding (core.i18n.format_chance; tests/web/test_browser.py checks). */
export function formatChance(p, places = 0) {
  const scale = 10 ** (places + 2);
  const shown = Math.round(p * scale) / scale; // half up, from the float p * scale
  const percent = (q) => formatNumber(q, { style: "percent", minimumFractionDigits: places, maximumFractionDigits: places });
  if (shown === 0 && p > 0) return t("odds.below", { p: percent(1 / scale) });
  if (shown === 1 && p < 1) return t("odds.above", { p: percent(1 - 1 / scale) });
  return percent(shown);
}

/** A date/time in the page's language (options of Intl.DateTimeFormat). */
export function formatDate(date, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(lang, options).format(date);
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
  return String(text).replace(/\{(\w+)\}/g, (_, name) => (name in params ? show(params[name]) : `{${name}}`));
}

function show(value) {
  return typeof value === "number" && Number.isFinite(value) ? formatNumber(value) : String(value);
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

const ordinalRules = new Map(); // lang -> Intl.PluralRules of ordinals

/** `n` as an ordinal in the page's language: "2nd" (en), "2." (de, pl), from the
 * catalogue's "ordinal" forms by CLDR's ordinal categories (one/two/few/other in English). */
export function ordinal(n) {
  const forms = current["ordinal"] ?? catalogues.en["ordinal"];
  if (!ordinalRules.has(lang)) ordinalRules.set(lang, new Intl.PluralRules(lang, { type: "ordinal" }));
  const form = forms[ordinalRules.get(lang).select(Number(n))] ?? forms.other;
  return form.replace("{n}", show(Number(n)));
}

/** t() for a key that may not exist: the fallback text instead of a warning. */
export function tOr(key, fallback, params = {}) {
  return key in current || key in catalogues.en ? t(key, params) : fallback;
}

/**
 * English made elsewhere (an advisor's column names and notes, which the server sends as
 * the game wrote them) said again in the page's language: `forms` is a list of
 * [RegExp, key]; the first pattern matching the whole text names the message, and its
 * named groups fill the placeholders. Text no form knows is returned as it is.
 */
export function sayAgain(text, forms = [], depth = 0) {
  if (typeof text !== "string") return text;
  for (const [pattern, key] of forms) {
    const found = text.match(pattern);
    if (!found || found[0] !== text) continue;
    // a group may quote another form (a note naming a column): said again too, once
    // and a number written the English way ("8,500") is a number, shown the page's way
    const groups = Object.entries(found.groups || {}).map(([name, value]) =>
      [name, /^\d{1,3}(,\d{3})*$/.test(value) ? Number(value.replaceAll(",", ""))
        : depth ? value : sayAgain(value, forms, depth + 1)]);
    // a key, or a function of the groups for a form whose parts need more than a key
    return typeof key === "function" ? key(Object.fromEntries(groups)) : t(key, Object.fromEntries(groups));
  }
  return text;
}

/** A game's name in the page's language: the vocabulary's "game.<id>.name" (once
 * loadGameMessages(id) has run), else `fallback` (the server's English name). */
export function gameName(id, fallback) {
  return tOr(`game.${id}.name`, fallback || id);
}

/** A refusal of the server ({code, message}: an ApiError or an error frame) in the page's
 * words: the message "error.<code>" where the code says it all (the codes whose message
 * carries details, like bad_request or illegal, have none), else the server's own message
 * (which it words in the language the page asked for). */
export function errorText(err) {
  const code = err && typeof err.code === "string" ? err.code : "";
  const message = String((err && err.message) || code);
  return /^[a-z_]+$/.test(code) ? tOr(`error.${code}`, message) : message;
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

/** The language switcher: a labelled select of the endonyms ([{code, name}]); a choice is
 * remembered and the page reloads in it. */
function switcher(offered) {
  const select = document.createElement("select");
  select.id = "language";
  select.className = "language-select";
  for (const { code, name } of offered) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    remember(select.value);
    const url = new URL(location.href);
    url.searchParams.set("lang", select.value);
    location.replace(url.href);
  });
  const label = document.createElement("label");
  label.className = "language";
  label.htmlFor = "language";
  const word = document.createElement("span");
  word.className = "visually-hidden";
  word.textContent = t("lang.label");
  label.append(word);
  const box = document.createElement("div");
  box.className = "language-switch";
  box.append(label, select);
  return box;
}

async function mountSwitcher() {
  const bar = document.querySelector("header.top");
  if (!bar || document.getElementById("language")) return;
  const offered = await fetch("/api/languages").then((r) => (r.ok ? r.json() : [])).catch(() => []);
  if (offered.length > 1 && !document.getElementById("language")) bar.append(switcher(offered));
  document.documentElement.dataset.switcher = "ready"; // for tests
}

{
  const code = wanted();
  setLanguage((await shared(code)) ? code : "en");
  mountSwitcher(); // not awaited: the page need not wait for it
}
