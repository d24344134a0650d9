// check_reach() in test_sweep.py evaluates this in the page, scrolled to the top: the acting
// player's enabled controls (the table's buttons, fields, selects) not wholly on the screen, or
// with their middle covered (a sticky bar over them), each as "label at y=top..bottom". A
// disabled primary button counts too: it is the turn's commit (Keep, Answer, Freeze), enabled
// once the player's picks are made, and must then be in reach without scrolling.
() => {
  const height = window.innerHeight;
  const label = (el) => `${el.tagName.toLowerCase()}${el.dataset.key ? "[" + el.dataset.key + "]" : ""}` +
    ` "${(el.getAttribute("aria-label") || el.textContent || el.value || "").trim().slice(0, 24)}"`;
  const out = [];
  for (const el of document.querySelectorAll(
    "#table button:enabled, #table button.primary, #table input:enabled:not([type=hidden]), " +
    "#table select:enabled")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest("[hidden]")) continue;
    // a control inside a box that scrolls sideways on its own counts where its box is
    let box = r;
    for (let p = el.parentElement; p && p.id !== "table"; p = p.parentElement) {
      const ov = getComputedStyle(p).overflowX;
      if (ov === "auto" || ov === "scroll") { box = p.getBoundingClientRect(); break; }
    }
    if (r.top < -0.5 || r.bottom > height + 0.5 || box.bottom > height + 0.5) {
      out.push(`${label(el)} at y=${Math.round(r.top)}..${Math.round(r.bottom)}`);
      continue;
    }
    // on the screen but under something else (a sticky bar over it): not in reach either
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (top && top !== el && !el.contains(top))
      out.push(`${label(el)} at y=${Math.round(r.top)}..${Math.round(r.bottom)} under ${top.tagName.toLowerCase()}.${top.className}`);
  }
  return out;
}
