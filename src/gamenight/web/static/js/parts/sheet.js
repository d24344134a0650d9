// A score sheet: rows of labelled cells, one column per player. Cells are text or nodes.
// A player's name is one text that may be 40 characters with no space: it wraps anywhere
// inside its column (app.css .sheet-name) and never widens the page; the column of the
// player to act and your own are marked by more than colour ("to play" tag, underline).
import { h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * sheet({caption, players: ["Ann", ...], rows: [{label, cells: [..], cls, key}], current, me, cls})
 * A row's `key` becomes its data-row (tests and styles find rows by it).
 */
export function sheet({ caption, players, rows, current = null, me = null, cls = "" }) {
  const colClass = (i) => [i === current ? "current" : "", i === me ? "me" : ""].filter(Boolean).join(" ");
  return h(
    "div",
    // it may scroll sideways (many players): a named region that the keyboard can scroll
    { class: `sheet-wrap ${cls}`, role: "region", "aria-label": caption || null, tabindex: "0" },
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
          h("td", { class: "corner" }),
          players.map((name, i) =>
            h("th", { scope: "col", class: colClass(i), "data-player": String(i) },
              h("span", { class: "sheet-name", title: name }, name),
              i === current ? h("span", { class: "visually-hidden" }, ` (${t("seat.turn")})`) : null),
          ),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((row) =>
          h(
            "tr",
            { class: row.cls || "", "data-row": row.key || null },
            h("th", { scope: "row" }, row.label),
            row.cells.map((cell, i) => h("td", { class: colClass(i), "data-player": String(i) }, cell ?? "")),
          ),
        ),
      ),
    ),
  );
}
