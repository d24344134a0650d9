// A catalogue option's entries in words (docs/protocol.md, "Catalogue options"): The Decades'
// decks. Each says its language, in the page's language ("Gamenight standard deck (English,
// 48 cards)"), so a German or Polish player who picks, or sits down to, an English deck
// knows its questions will be English. Used by the lobby's picker and the room's facts.
import { t, tOr, language } from "../i18n.js";

/** A language code ("en") as the page's language names it ("angielski" on a Polish page). */
export function languageName(code) {
  try {
    return new Intl.DisplayNames([language()], { type: "language" }).of(code) || code;
  } catch {
    return code;
  }
}

/** The game's default entry ("the shipped deck"), with its language if it has one. */
export function defaultText(game, opt) {
  const cat = opt.catalogue;
  const label = cat.default_label || "";
  const name = tOr(`opt.${game.id}.${opt.name}.default`, label.charAt(0).toUpperCase() + label.slice(1));
  return cat.default_language ? t("catalogue.in_language", { name, language: languageName(cat.default_language) }) : name;
}

/** One entry ({id, name, detail, count, language}): its name, language and size. */
export function entryText(opt, entry) {
  const noun = opt.catalogue.noun;
  const lang = entry.language ? languageName(entry.language) : null;
  if (noun === "deck" && entry.count !== null && entry.count !== undefined && lang) {
    return t("catalogue.deck", { name: entry.name, language: lang, count: entry.count });
  }
  if (lang) return t("catalogue.in_language", { name: entry.name, language: lang });
  return entry.detail ? t("opt.catalogue_entry", { name: entry.name, detail: entry.detail }) : entry.name;
}

/** What value `value` of catalogue option `opt` names, in words (null: not in `entries`). */
export function chosenText(game, opt, entries, value) {
  const cat = opt.catalogue;
  const v = value === undefined || value === null ? "" : String(value);
  if ((cat.defaults || [""]).includes(v.trim().toLowerCase())) return defaultText(game, opt);
  const entry = entries.find((e) => e.id === v || e.id.startsWith(v));
  return entry ? entryText(opt, entry) : null;
}
