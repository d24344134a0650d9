// Dice as SVG inside focusable toggle buttons. A die's colour never carries meaning alone:
// the "black" style is a sharp-cornered die with a double rim, the "red" one a round die
// with a striped band, and every die's accessible name says its colour and value.
import { h, s } from "../dom.js";
import { t } from "../i18n.js";

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
export function die({ value, style = "plain", selected = false, onToggle, key, disabled = false, note = "" }) {
  const colour = style === "red" || style === "black" ? t(`die.colour.${style}`) : "";
  const label = t("die.label", { value, colour }).trim() + (note ? `, ${note}` : "");
  if (!onToggle) {
    return h("span", { class: `die ${selected ? "selected" : ""}`, role: "img", "aria-label": label }, dieSvg(value, style));
  }
  return h(
    "button",
    {
      type: "button",
      class: `die ${selected ? "selected" : ""}`,
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

/** A row of dice with a caption. */
export function diceRow(caption, dice, cls = "") {
  return h("div", { class: `dice-row ${cls}` }, caption ? h("span", { class: "dice-caption" }, caption) : null, h("div", { class: "dice" }, dice));
}
