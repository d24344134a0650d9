// The readable log: one line per event, described by the game's renderer (or generically
// from the event's kind and fields), newest at the bottom; role="log" announces additions.
import { h } from "../dom.js";
import { t } from "../i18n.js";

// `event` is always a bare game event: its "kind" and its fields (docs/protocol.md).

export function genericLine(event) {
  const fields = { ...event };
  delete fields.kind;
  delete fields.audience;
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== "object")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`);
  return `${String(event.kind || "?").replace(/-/g, " ")}${parts.length ? ": " + parts.join(", ") : ""}`;
}

export function describe(renderer, event, ctx) {
  try {
    const line = renderer && renderer.describe ? renderer.describe(event, ctx) : undefined;
    if (line === null) return null; // the game says: not worth a line
    if (line !== undefined) return line;
  } catch (err) {
    console.warn("describe failed", event, err);
  }
  return genericLine(event);
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
