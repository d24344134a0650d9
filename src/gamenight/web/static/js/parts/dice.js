// Dice as SVG inside focusable toggle buttons. A die's colour never carries meaning alone:
// the "black" style is a sharp-cornered die with a double rim, the "red" one a round die
// with a striped band, and every die's accessible name says its colour and value.
//
// Motion: a die of a new throw rolls in (class "rolling", a short CSS animation) and every
// die of the latest throw carries a "fresh" mark (a dot, and "just thrown" in its name).
// The renderer says which dice are fresh and names the throw (`throwId`, any string that
// changes with every throw): a redraw of the same throw (a die toggled, the server's
// answer) does not start the roll again but continues it where it was. Under
// `prefers-reduced-motion: reduce` no die ever gets the class (and the CSS turns every
// animation off too); the mark stays, it is not motion.
import { h, s } from "../dom.js";
import { t } from "../i18n.js";

export const ROLL_MS = 450; // the roll's length; app.css's die-roll animation lasts as long
const throws = new Map(); // group -> {id, at}: the latest throw drawn and when it was first drawn

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * How far into its roll a die of throw `id` (in `group`, e.g. "table") is: 0 for a throw
 * drawn for the first time now, the milliseconds since then while it still rolls, and null
 * when it has finished rolling (or motion is reduced).
 */
export function rollProgress(group, id) {
  if (id === null || id === undefined || reducedMotion()) return null;
  const now = performance.now();
  const seen = throws.get(group);
  if (!seen || seen.id !== id) {
    throws.set(group, { id, at: now });
    return 0;
  }
  const elapsed = now - seen.at;
  return elapsed < ROLL_MS ? elapsed : null;
}

const PIPS = {
  1: [[50, 50]],
  2: [[28, 28], [72, 72]],
  3: [[28, 28], [50, 50], [72, 72]],
  4: [[28, 28], [72, 28], [28, 72], [72, 72]],
  5: [[28, 28], [72, 28], [50, 50], [28, 72], [72, 72]],
  6: [[28, 26], [72, 26], [28, 50], [72, 50], [28, 74], [72, 74]],
};

/** The SVG picture of one die (decorative: the button around it carries the name). */
export function dieSvg(value, style = "plain") {
  const svg = s("svg", { viewBox: "0 0 100 100", class: `die-svg die-${style}`, "aria-hidden": "true", focusable: "false" });
  if (style === "red") {
    svg.append(s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 30, class: "die-body" }));
    svg.append(s("path", { d: "M4 80 L80 4 L96 4 L96 20 L20 96 L4 96 Z", class: "die-band" }));
  } else if (style === "black") {
    svg.append(s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 4, class: "die-body" }));
    svg.append(s("rect", { x: 11, y: 11, width: 78, height: 78, rx: 2, class: "die-rim" }));
  } else {
    svg.append(s("rect", { x: 4, y: 4, width: 92, height: 92, rx: 16, class: "die-body" }));
  }
  for (const [cx, cy] of PIPS[value] || []) {
    svg.append(s("circle", { cx, cy, r: 9, class: "die-pip" }));
  }
  if (!PIPS[value]) svg.append(s("text", { x: 50, y: 62, class: "die-q", "text-anchor": "middle" }, "?"));
  return svg;
}

/**
 * One die. With `onToggle` it is a toggle button (aria-pressed = selected); without it a
 * plain picture with a text alternative.
 */
export function die({
  value, style = "plain", selected = false, onToggle, key, disabled = false, note = "", fresh = false, rolling = null, cls: extra = "",
}) {
  const colour = style === "red" || style === "black" ? t(`die.colour.${style}`) : "";
  const notes = [note, fresh ? t("die.fresh") : ""].filter(Boolean);
  const label = t("die.label", { value, colour }).trim() + notes.map((n) => `, ${n}`).join("");
  const cls = ["die", selected ? "selected" : "", fresh ? "fresh" : "", rolling !== null && fresh ? "rolling" : "", extra].filter(Boolean).join(" ");
  const el = onToggle
    ? dieButton({ value, style, selected, onToggle, key, disabled, label, cls })
    : h("span", { class: cls, role: "img", "aria-label": label, "data-value": value }, dieSvg(value, style));
  // a redraw in the middle of a roll continues it (CSSOM, not an inline style attribute)
  if (rolling && fresh) el.style.animationDelay = `-${Math.round(rolling)}ms`;
  return el;
}

function dieButton({ value, style, selected, onToggle, key, disabled, label, cls }) {
  return h(
    "button",
    {
      type: "button",
      class: cls,
      "aria-pressed": selected ? "true" : "false",
      "aria-label": label,
      "data-key": key,
      "data-value": value,
      disabled,
      onclick: onToggle,
    },
    dieSvg(value, style),
  );
}

/** A row of dice with a caption (and `after`, e.g. the row's sum, behind the dice). */
export function diceRow(caption, dice, cls = "", after = null) {
  return h("div", { class: `dice-row ${cls}` }, caption ? h("span", { class: "dice-caption" }, caption) : null, h("div", { class: "dice" }, dice), after);
}
