// The hint panel: renders any game's Advice JSON (gamenight.core.advice) as a table,
// every option with its values, each objective's best option highlighted. An option is
// named as the table's own button for that action names it: a renderer that describes
// actions (describeAction(action) -> text) registers it with describeActionsWith() while
// it draws, and the panel uses it (the server's label is the fallback).
import { h } from "../dom.js";
import { t, formatNumber } from "../i18n.js";

let describer = null;

/** The table's words for an action (a function action -> text or null), or null for none. */
export function describeActionsWith(fn) {
  describer = typeof fn === "function" ? fn : null;
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

function fmt(value, unit) {
  if (value === null || value === undefined) return "–";
  if (unit === "probability") return formatNumber(value, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return Number.isInteger(value) ? formatNumber(value) : formatNumber(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

export function advicePanel(advice, onChoose, describe = describer) {
  if (!advice) return h("p", { class: "muted" }, t("hint.none"));
  const objectives = advice.objectives || [];
  const leading = objectives.length ? objectives[0].best : -1;
  return h(
    "div",
    { class: "advice" },
    advice.note ? h("p", { class: "muted" }, advice.note) : null,
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
          objectives.map((o) => h("th", { scope: "col" }, o.name + (o.unit && o.unit !== "probability" ? ` (${o.unit})` : ""))),
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
              h("td", { class: o.best === i ? "best-cell" : "" }, fmt(option.values[j], o.unit)),
            ),
            onChoose
              ? h("td", {}, h("button", { type: "button", class: "small", onclick: () => onChoose(option.action) }, t("hint.play")))
              : null,
          ),
        ),
      ),
    ),
    objectives.filter((o) => o.note).map((o) => h("p", { class: "muted" }, `${o.name}: ${o.note}`)),
  );
}
