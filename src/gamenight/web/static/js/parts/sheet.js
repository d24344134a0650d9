// A score sheet: rows of labelled cells, one column per player. Cells are text or nodes.
import { h } from "../dom.js";

/**
 * sheet({caption, players: ["Ann", ...], rows: [{label, cells: [..], cls}], current, me})
 */
export function sheet({ caption, players, rows, current = null, me = null, cls = "" }) {
  return h(
    "div",
    { class: `sheet-wrap ${cls}` },
    h(
      "table",
      { class: "sheet" },
      caption ? h("caption", {}, caption) : null,
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, ""),
          players.map((name, i) =>
            h("th", { scope: "col", class: [i === current ? "current" : "", i === me ? "me" : ""].join(" ") }, name),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((row) =>
          h(
            "tr",
            { class: row.cls || "" },
            h("th", { scope: "row" }, row.label),
            row.cells.map((cell, i) => h("td", { class: i === current ? "current" : "" }, cell ?? "")),
          ),
        ),
      ),
    ),
  );
}
