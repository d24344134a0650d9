// layout_problems() in webui.py evaluates this in the page: [touch, minTap] -> problems
([touch, minTap]) => {
  const out = [];
  const SPILL = 5; // px
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1)
    out.push(`scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
  const width = doc.clientWidth;
  const label = (el) => `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}` +
    `${el.dataset.key ? "[" + el.dataset.key + "]" : ""} "${(el.textContent || el.value || "").trim().slice(0, 30)}"`;
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.position === "fixed") continue;
    // inside a container that scrolls on its own (a wide table's wrapper) is fine
    let clipped = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const ov = getComputedStyle(p).overflowX;
      if (ov === "auto" || ov === "scroll" || ov === "hidden") { clipped = true; break; }
    }
    if (!clipped && r.right > width + 1) out.push(`sticks out ${Math.round(r.right - width)} px: ${label(el)}`);
    // its own text wider than its box, spilling over its neighbour (a long word in a
    // narrow grid cell: "Stabhochsprung" over the next checkbox); a few pixels are a
    // glyph's overhang or a drawn die's shadow, not a word over the next box
    if (!clipped && style.overflowX === "visible" && el.clientWidth > 0 &&
        style.display !== "inline" && el.scrollWidth > el.clientWidth + SPILL &&
        [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()))
      out.push(`spills ${el.scrollWidth - el.clientWidth} px out of its box: ${label(el)}`);
  }
  if (touch) {
    const controls = document.querySelectorAll(
      "button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex='0']");
    for (const el of controls) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || el.disabled || el.closest("[hidden]")) continue;
      if (r.bottom <= 0 || r.right <= 0) continue; // moved off screen (a skip link until focused)
      if (getComputedStyle(el).visibility === "hidden") continue;
      // a link inside running text is exempt (WCAG 2.5.8 "inline")
      if (el.tagName === "A" && getComputedStyle(el).display === "inline") continue;
      // a checkbox or radio counts with its label, which is the tap target
      if (el.matches("input[type=checkbox], input[type=radio]")) {
        const lab = el.closest("label") || (el.id && document.querySelector(`label[for="${el.id}"]`));
        if (lab) {
          const lr = lab.getBoundingClientRect();
          if (lr.width >= minTap && lr.height >= minTap) continue;
        }
      }
      if (r.width < minTap - 0.5 || r.height < minTap - 0.5)
        out.push(`too small ${Math.round(r.width)}x${Math.round(r.height)}: ${label(el)}`);
    }
  }
  return [...new Set(out)].slice(0, 40);
}
