// The small connection indicator (and its text for screen readers).
import { h } from "../dom.js";
import { t } from "../i18n.js";

export function connectionStatus(conn) {
  const dot = h("span", { class: "conn-dot", "aria-hidden": "true" });
  const text = h("span", { class: "conn-text" });
  const el = h("div", { class: "conn", role: "status" }, dot, text);
  const show = (status) => {
    el.dataset.status = status;
    text.textContent = t(`conn.${status}`);
  };
  show(conn.status);
  conn.addEventListener("status", (e) => show(e.detail));
  return el;
}
