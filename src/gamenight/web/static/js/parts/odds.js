// The live odds bar (rooms with the room option "odds"): one coloured segment per player, as
// wide as their chance and showing it, over a legend with every player's name and chance.
// The legend is the list screen readers get (the bar repeats it in colour, so it is hidden
// from them). Names are text, never markup.
import { h } from "../dom.js";
import { t, tOr, formatChance } from "../i18n.js";

const COLOURS = 8; // .odds-c0 ... .odds-c7 in app.css, by seat

/** What a series of odds measures (an Odds label: the game's English, core/odds.py) in
 * the page's language; a label no catalogue knows shows as the game wrote it. */
const objective = (label) => tOr(`odds.objective.${label}`, label);
const capitalized = (text) => (text ? text[0].toLocaleUpperCase() + text.slice(1) : text);

const tenth = (p) => formatChance(p, 1);

/** "62%" ("62 %" in German); "<1%" and ">99%" for chances that are neither 0 nor 1. */
export const percent = (p) => formatChance(p, 0);

/** One player's chance as text: "62%", or "≈62% ±1.2%" when estimated. */
export function chance(odds, seat) {
  const p = percent(odds.win[seat]);
  if (odds.exact) return p;
  const se = odds.se ? odds.se[seat] : null;
  return se ? t("odds.estimate_se", { p, se: tenth(se) }) : t("odds.estimate", { p });
}

/**
 * oddsBar({odds: Odds JSON (gamenight.core.odds), names: ["Ann", ...], me, seq}) -> a panel,
 * or null without odds. Widths are the chances over their sum: in the Championship a tie
 * for the most honours counts for each tied player, so the chances may add up to over 100%.
 */
export function oddsBar({ odds, names, me = null, seq }) {
  if (!odds || !odds.win || !odds.win.length) return null;
  const total = odds.win.reduce((a, b) => a + b, 0) || 1;
  const label = odds.label ? capitalized(objective(odds.label)) : t("odds.title");
  const name = (seat) => names[seat] || `#${seat + 1}`;
  const colour = (seat) => `odds-c${seat % COLOURS}`;
  const segments = odds.win.map((p, seat) => {
    const el = h("span", { class: `odds-seg ${colour(seat)}` }, h("span", { class: "odds-pct" }, percent(p)));
    el.style.flexGrow = String(p / total); // CSSOM, not a style attribute: the CSP allows it
    el.hidden = p / total < 0.002;
    return el;
  });
  const worst = odds.se && odds.se.length ? Math.max(...odds.se) : 0;
  return h("section", { class: "panel odds", dataset: seq === undefined ? {} : { seq } },
    h("h3", {}, label),
    h("div", { class: "odds-bar", "aria-hidden": "true" }, segments),
    h("ul", { class: "odds-legend", "aria-label": label }, odds.win.map((_, seat) =>
      h("li", { class: seat === me ? "me" : "", dataset: { seat } },
        h("span", { class: `odds-swatch ${colour(seat)}`, "aria-hidden": "true" }),
        h("span", { class: "odds-name" }, name(seat)), " ",
        h("span", { class: "odds-chance" }, chance(odds, seat))))),
    odds.exact ? null : h("p", { class: "muted odds-note" }, t("odds.estimated", { se: tenth(worst) })),
    also(odds, name));
}

/** The second labelled series (odds.also, e.g. both playing to win), as one line; the
 * label is the objective's English name (core/odds.py), said in the page's language. */
function also(odds, name) {
  if (!odds.also || !odds.also.length) return null;
  const parts = odds.also.map((p, seat) => t("odds.part", { name: name(seat), chance: percent(p) }));
  const label = odds.also_label ? objective(odds.also_label) : "";
  return h("p", { class: "muted odds-also" }, t("odds.also", { label, chances: parts.join(", ") }));
}
