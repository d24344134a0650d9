// The table of any game without a board of its own (a plug-in that ships none): the view's
// fields, nested lists and records shown as nested lists, then every legal move as a
// button labelled by its tag and fields ("hold", "take box=sixes"). Seats are shown by
// name: a field named like a seat (SEAT_KEYS) holding a seat number, and a top-level list
// with one item per seat, labelled with the seats' names. Many moves are paged (PAGE at
// a time) and searchable, and the table says how many there are. Everything is text from
// the server, never markup. A plug-in's own board may reuse the parts (fields, moves).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { actButton, nameOf } from "../parts/common.js";

const TAGS = ["type", "kind"]; // actions' tag field, events' tag field
const SEAT_KEYS = new Set(["seat", "player", "turn", "current", "winner", "leader", "dealer", "to_act", "team"]);
export const PAGE = 20; // moves shown at once
const DEEPEST = 6; // nesting shown as lists; deeper parts as JSON text

const isSeat = (ctx, key, value) =>
  SEAT_KEYS.has(key) && Number.isInteger(value) && value >= 0 && value < (ctx.names || []).length;

/** A value as one line of text (an action's field, a list of numbers). */
function text(ctx, value, key = "") {
  if (isSeat(ctx, key, value)) return nameOf(ctx, value);
  if (Array.isArray(value)) {
    if (SEAT_KEYS.has(key) && value.every((v) => isSeat(ctx, key, v))) return value.map((v) => nameOf(ctx, v)).join(", ");
    return value.length ? `[${value.map((v) => text(ctx, v)).join(", ")}]` : "—";
  }
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${k}=${text(ctx, v, k)}`).join(" ")}}`;
  }
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? t("generic.yes") : t("generic.no");
  return String(value);
}

const flat = (value) => value === null || typeof value !== "object";

/** A value as a node: text for a scalar or a list of scalars, a list for anything nested. */
function node(ctx, value, key = "", depth = 0) {
  if (flat(value) || depth >= DEEPEST) return flat(value) ? text(ctx, value, key) : JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.every(flat)) return text(ctx, value, key);
    return h("ol", { class: "generic-list" }, value.map((item) => h("li", {}, node(ctx, item, "", depth + 1))));
  }
  return h("dl", { class: "generic-record" }, Object.entries(value).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, node(ctx, v, k, depth + 1))]));
}

/** A top-level list with one item per seat, each labelled with the seat's name. */
function perSeat(ctx, value) {
  return h("ul", { class: "generic-seats" }, value.map((item, seat) =>
    h("li", {}, h("span", { class: "generic-seat" }, `${nameOf(ctx, seat)}:`), " ", node(ctx, item, "", 1))));
}

/** The view's fields as a labelled list (seats by name). */
export function fields(ctx) {
  const view = ctx.view && typeof ctx.view === "object" && !Array.isArray(ctx.view) ? ctx.view : { view: ctx.view };
  const seats = (ctx.names || []).length;
  return h("dl", { class: "view-fields" }, Object.entries(view).flatMap(([k, v]) => [
    h("dt", {}, k),
    h("dd", {}, Array.isArray(v) && seats > 1 && v.length === seats && !SEAT_KEYS.has(k) ? perSeat(ctx, v) : node(ctx, v, k)),
  ]));
}

/** An action's label: its tag, then its fields (seats by name). */
export function label(action, ctx = {}) {
  if (action === null || typeof action !== "object") return String(action);
  const tag = TAGS.find((k) => k in action);
  const rest = Object.entries(action).filter(([k]) => k !== tag).map(([k, v]) => `${k}=${text(ctx, v, k)}`);
  return [tag ? String(action[tag]) : null, ...rest].filter((x) => x !== null).join(" ");
}

/** Every legal move, as buttons: all of them when few, else a page at a time with a
 * search box; it says how many there are and which are shown. The page and the search
 * last until the next move (ctx.local). */
export function moves(ctx) {
  const legal = ctx.legal || [];
  const local = (ctx.local ||= {});
  const state = (local.generic ||= { page: 0, query: "" });
  const labelled = legal.map((a) => [a, label(a, ctx)]);
  const count = h("p", { class: "generic-count", "aria-live": "polite" });
  const list = h("div", { class: "actions" });
  const prev = h("button", { type: "button", class: "generic-prev", onclick: () => turn(-1) }, t("generic.prev"));
  const next = h("button", { type: "button", class: "generic-next", onclick: () => turn(1) }, t("generic.next"));
  const pager = h("div", { class: "generic-pager" }, prev, next);

  function matching() {
    const q = state.query.trim().toLowerCase();
    return q ? labelled.filter(([, text]) => text.toLowerCase().includes(q)) : labelled;
  }

  function show() {
    const found = matching();
    const pages = Math.max(1, Math.ceil(found.length / PAGE));
    state.page = Math.min(Math.max(0, state.page), pages - 1);
    const first = state.page * PAGE;
    const shown = found.slice(first, first + PAGE);
    list.replaceChildren(...shown.map(([a, text]) => actButton(ctx, a, text)));
    if (!legal.length) count.textContent = t("generic.no_moves");
    else if (!found.length) count.textContent = t("generic.none_found", { query: state.query.trim() });
    else if (found.length <= PAGE && found.length === legal.length) count.textContent = t("generic.moves", { count: legal.length });
    else count.textContent = t("generic.showing", { from: first + 1, to: first + shown.length, count: found.length, all: legal.length });
    pager.hidden = found.length <= PAGE;
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages - 1;
  }

  function turn(by) {
    state.page += by;
    show();
  }

  const parts = [count];
  if (legal.length > PAGE) {
    const id = "generic-find";
    parts.push(h("div", { class: "generic-find" },
      h("label", { for: id }, t("generic.find")),
      h("input", { id, type: "search", value: state.query, autocomplete: "off",
        oninput: (e) => { state.query = e.target.value; state.page = 0; show(); } })));
  }
  parts.push(list, pager);
  show();
  return h("div", { class: "generic-moves" }, parts);
}

export default {
  render(ctx) {
    // the moves first, the view under them: on a phone the question is on screen
    return h("div", { class: "table generic" }, h("p", {}, t("generic.note")), moves(ctx), fields(ctx));
  },
};
