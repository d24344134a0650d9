// The hint panel: renders any game's Advice JSON (gamenight.core.advice) as a table,
// every option with its values, each objective's best option highlighted. An option is
// named as the table's own button for that action names it: a renderer that describes
// actions (describeAction(action) -> text) registers it with describeActionsWith() while
// it draws, and the panel uses it (the server's label is the fallback). The advisor's
// column names, units and notes are the game's English: the renderer also registers the
// forms they take ([RegExp, key], i18n.sayAgain), and the panel says them in the page's
// language (an unknown one shows as sent).
import { h } from "../dom.js";
import { t, formatChance, formatNumber, sayAgain } from "../i18n.js";

let describer = null;
let wordForms = [];
// units every game's advice may use (core/advice.py); "probability" is shown as a percent
const UNITS = [[/points/, "hint.unit.points"]];

/** The table's words for an action (a function action -> text or null), or null for none;
 * `forms`: the game's advice words ([RegExp, key]) in the page's language. */
export function describeActionsWith(fn, forms = []) {
  describer = typeof fn === "function" ? fn : null;
  wordForms = [...forms, ...UNITS];
}

/** An advisor's English word (a column's name, unit or note) in the page's language. */
export function adviceWords(text) {
  return sayAgain(text, wordForms);
}

function optionLabel(option, describe) {
  try {
    const text = describe ? describe(option.action) : null;
    if (text) return text;
  } catch (err) {
    console.warn("describeAction failed", option.action, err);
  }
  return option.label;
}

/** An option's name as the table names its action (the server's label as the fallback). */
export function optionWords(option) {
  return optionLabel(option, describer);
}

function fmt(value, unit) {
  if (value === null || value === undefined) return "–";
  if (unit === "probability") return formatChance(value, 1);
  return Number.isInteger(value) ? formatNumber(value) : formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function advicePanel(advice, onChoose, describe = describer) {
  if (!advice) return h("p", { class: "muted" }, t("hint.none"));
  const objectives = advice.objectives || [];
  const leading = objectives.length ? objectives[0].best : -1;
  return h(
    "div",
    { class: "advice" },
    advice.note ? h("p", { class: "muted" }, adviceWords(advice.note)) : null,
    h(
      "div",
      { class: "advice-wrap" }, // a table wider than a narrow phone scrolls inside it
      h(
        "table",
        { class: "advice-table" },
        h("caption", { class: "visually-hidden" }, t("hint.title")),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, t("hint.option")),
            objectives.map((o) => h("th", { scope: "col" }, adviceWords(o.name) + (o.unit && o.unit !== "probability" ? ` (${adviceWords(o.unit)})` : ""))),
            onChoose ? h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("hint.play"))) : null,
          ),
        ),
        h(
          "tbody",
          {},
          (advice.options || []).map((option, i) =>
            h(
              "tr",
              { class: i === leading ? "best" : "" },
              h("th", { scope: "row" }, h("span", { class: "option-label" }, optionLabel(option, describe)), i === leading ? h("span", { class: "tag best-tag" }, t("hint.best")) : null),
              objectives.map((o, j) =>
                h("td", { class: o.best === i ? "value best-cell" : "value" }, fmt(option.values[j], o.unit)),
              ),
              onChoose
                ? h("td", {}, h("button", { type: "button", class: "small play", onclick: () => onChoose(option.action) },
                // a phone shows the mark alone (the word stays the button's name): the values
                // keep their room in a longer language
                h("span", { class: "play-mark", "aria-hidden": "true" }, "▶"), h("span", { class: "play-word" }, t("hint.play"))))
                : null,
            ),
          ),
        ),
      ),
    ),
    objectives.filter((o) => o.note).map((o) => h("p", { class: "muted" }, t("hint.note", { name: adviceWords(o.name), note: adviceWords(o.note) }))),
  );
}
