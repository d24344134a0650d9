// Small pieces every renderer uses: buttons for legal actions, the names of seats,
// matching actions against the legal list.
import { h } from "../dom.js";

export function same(a, b) {
  return JSON.stringify(canon(a)) === JSON.stringify(canon(b));
}

function canon(value) {
  if (Array.isArray(value)) return value.map(canon);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canon(value[k])]));
  }
  return value;
}

/** The legal action equal to `action`, or undefined. */
export function findLegal(legal, action) {
  return (legal || []).find((a) => same(a, action));
}

export function legalOfType(legal, type) {
  return (legal || []).filter((a) => a.type === type);
}

/** A button that plays `action` if it is legal (disabled otherwise). */
export function actButton(ctx, action, label, { cls = "", key, primary = false, title } = {}) {
  const ok = !!findLegal(ctx.legal, action) && !ctx.busy;
  return h(
    "button",
    {
      type: "button",
      class: `${primary ? "primary" : ""} ${cls}`,
      disabled: !ok,
      "data-key": key || JSON.stringify(action),
      title,
      onclick: () => ctx.act(action),
    },
    label,
  );
}

export function nameOf(ctx, seat) {
  if (seat === null || seat === undefined) return "";
  return (ctx.names && ctx.names[seat]) || `#${seat + 1}`;
}

export function toggle(set, value) {
  if (set.has(value)) set.delete(value);
  else set.add(value);
}

export const sorted = (set) => [...set].sort((a, b) => a - b);

/**
 * Announcement parts joined into one text: a part that already ends a sentence (. ! ? …
 * or :) is not given another full stop ("Keep this die? Your turn", never "die?. Your").
 */
export function sentences(parts) {
  const clean = (parts || []).map((p) => String(p ?? "").trim()).filter(Boolean);
  return clean
    .map((p, i) => (i < clean.length - 1 && !/[.!?…:;]["')\]]*$/.test(p) ? `${p}.` : p))
    .join(" ");
}

export function panel(title, ...children) {
  return h("section", { class: "panel" }, title ? h("h3", {}, title) : null, children);
}
