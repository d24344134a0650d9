// Text fields that count what the server counts. The server takes a name of at most 40
// characters and a chat line of at most 300, counted in Unicode code points
// (core/text.py check_text); the browser's maxlength counts UTF-16 units instead, so an
// emoji (two units) cost a 40-character name its last character. These fields have no
// maxlength: the text is put in NFC (what a keyboard that composes letters from parts
// sends differs only in form) and cut, if longer, at the last whole character (a
// grapheme: an emoji with its skin tone or a flag is never cut in two) that fits.

/** `text` in NFC, cut to at most `limit` code points at a grapheme boundary.
 * clipText("W".repeat(39) + "🎲", 40) keeps the die (40 code points, 41 UTF-16 units). */
export function clipText(text, limit) {
  const nfc = String(text ?? "").normalize("NFC");
  if ([...nfc].length <= limit) return nfc;
  let out = "";
  let used = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(nfc)) {
    const size = [...segment].length;
    if (used + size > limit) break;
    out += segment;
    used += size;
  }
  return out;
}

/** Make `input` take at most `limit` code points (clipText), not UTF-16 units. */
export function limitText(input, limit) {
  if (!input) return input;
  input.removeAttribute("maxlength");
  input.dataset.limit = String(limit);
  const clip = () => {
    const clipped = clipText(input.value, limit);
    if (clipped !== input.value) input.value = clipped;
  };
  // in the capture phase: before the page's own input listeners read the value; never in
  // the middle of a composition (an IME's word is clipped once it is committed)
  input.addEventListener("input", (e) => { if (!e.isComposing) clip(); }, { capture: true });
  input.addEventListener("compositionend", clip);
  clip();
  return input;
}
