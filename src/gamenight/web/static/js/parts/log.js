// The readable log: one line per event, described by the game's renderer (or generically
// from the event's kind and fields), newest at the bottom; role="log" announces additions.
import { h } from "../dom.js";
import { t } from "../i18n.js";

// `event` is always a bare game event: its "kind" and its fields (docs/protocol.md).

// fields that name a seat (a player, or a team of a team game) are shown by its name
const SEAT_FIELDS = ["player", "team", "seat"];

export function genericLine(event, ctx) {
  const fields = { ...event };
  delete fields.kind;
  delete fields.audience;
  const names = (ctx && ctx.names) || [];
  const who = SEAT_FIELDS.filter((k) => Number.isInteger(fields[k])).map((k) => {
    const seat = fields[k];
    delete fields[k];
    return names[seat] || `#${seat + 1}`;
  });
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== "object")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
  const what = `${String(event.kind || "?").replace(/-/g, " ")}${parts.length ? ": " + parts.join(", ") : ""}`;
  return who.length ? `${who.join(", ")}: ${what}` : what;
}

export function describe(renderer, event, ctx) {
  try {
    const line = renderer && renderer.describe ? renderer.describe(event, ctx) : undefined;
    if (line === null) return null; // the game says: not worth a line
    if (line !== undefined) return line;
  } catch (err) {
    console.warn("describe failed", event, err);
  }
  return genericLine(event, ctx);
}

export class LogPanel {
  constructor() {
    this.list = h("ol", { class: "log-list" });
    this.el = h("section", { class: "panel log", "aria-labelledby": "log-title" },
      h("h2", { id: "log-title" }, t("log.title")),
      h("div", { class: "log-scroll", role: "log", "aria-live": "polite", tabindex: "0", "aria-label": t("log.title") }, this.list));
    this.count = 0;
  }

  add(text, cls = "") {
    if (!text) return;
    this.list.append(h("li", { class: cls }, text));
    this.count += 1;
    while (this.list.children.length > 400) this.list.firstChild.remove();
    const scroller = this.list.parentElement;
    scroller.scrollTop = scroller.scrollHeight;
    requestAnimationFrame(() => (scroller.scrollTop = scroller.scrollHeight));
  }

  clear() {
    this.list.replaceChildren();
    this.count = 0;
  }
}
