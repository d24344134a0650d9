// Tiny DOM helpers. User text is only ever inserted with textContent, never parsed as HTML.
const SVG_NS = "http://www.w3.org/2000/svg";

/** h("button", {class: "x", onclick: fn, "aria-pressed": "true"}, "text", child, ...) */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      el.textContent = String(value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) el.dataset[k] = String(v);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
}

function append(el, children) {
  const html = el.namespaceURI === HTML_NS;
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    if (child instanceof Node) el.append(child);
    else if (html) el.append(...textWithIsolates(String(child)));
    else el.append(document.createTextNode(String(child)));
  }
}

const HTML_NS = "http://www.w3.org/1999/xhtml";
const ISOLATE = /\u2068([^\u2068\u2069]*)\u2069/g;

/** Text for an HTML element: each name isolate() made (U+2068 … U+2069) becomes a <bdi>
 * holding the name, so the page's text holds the name alone (what a test or a copy reads)
 * and the browser isolates it just the same. */
function textWithIsolates(text) {
  if (!text.includes("\u2068")) return [document.createTextNode(text)];
  const out = [];
  let last = 0;
  for (const found of text.matchAll(ISOLATE)) {
    if (found.index > last) out.push(document.createTextNode(text.slice(last, found.index)));
    const bdi = document.createElement("bdi");
    bdi.textContent = found[1];
    out.push(bdi);
    last = found.index + found[0].length;
  }
  if (last < text.length) out.push(document.createTextNode(text.slice(last)));
  return out;
}

/** Replace the children of `el`, keeping the focus on the element with the same data-key. */
export function replace(el, ...children) {
  const active = document.activeElement;
  const key = active && el.contains(active) ? active.dataset.key : undefined;
  el.replaceChildren();
  append(el, children);
  if (key !== undefined) {
    const again = el.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus({ preventScroll: true });
  }
}

export const $ = (sel, root = document) => root.querySelector(sel);

/**
 * A player's name marked as a bidirectional isolate (U+2068 FIRST STRONG ISOLATE ...
 * U+2069 POP DIRECTIONAL ISOLATE): inside any sentence it reads as it would alone ("שרה 2"
 * stays "שרה 2", and the "12" after it in "שרה 2 12" stays after it). h() and replace()
 * turn the marks into a <bdi> around the name; in an attribute (an aria-label) or a live
 * announcement the invisible marks themselves isolate it. Names never hold bidi controls
 * (core/text.py refuses them), so none can end the isolate early. Every label and log
 * line gets names through here (parts/seats.js).
 */
export function isolate(name) {
  const text = String(name ?? "");
  return text ? `\u2068${text}\u2069` : "";
}
