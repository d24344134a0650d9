// The hint panel: renders any game's Advice JSON (gamenight.core.advice) as a table,
// every option with its values, each objective's best option highlighted.
import { h } from "../dom.js";
import { t } from "../i18n.js";

function fmt(value, unit) {
  if (value === null || value === undefined) return "–";
  if (unit === "probability") return `${(value * 100).toFixed(1)}%`;
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function advicePanel(advice, onChoose) {
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
            h("th", { scope: "row" }, option.label, i === leading ? h("span", { class: "tag best-tag" }, t("hint.best")) : null),
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
