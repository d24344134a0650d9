// The fairness check: recompute the seed's commitment (gamenight.core.seeds.commitment:
// sha256 over the canonical JSON of scheme, seed, game, rules version and options) and
// compare it with the commitment the room showed from the start.

/** Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True). */
export function canonicalJson(value) {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  const keys = Object.keys(value).sort();
  return "{" + keys.map((k) => canonicalJson(k) + ":" + canonicalJson(value[k])).join(",") + "}";
}

export async function commitment(seed, game, rulesVersion, options, dice = 2) {
  // dice scheme 1 (games committed before scheme 2) keeps the older payload without "dice"
  const fields = { scheme: dice === 1 ? "sha256-v1" : "sha256-v2", seed: String(seed), game, rules_version: rulesVersion, options };
  if (dice !== 1) fields.dice = dice;
  return sha256Hex(canonicalJson(fields));
}

async function sha256Hex(text) {
  const bytes = new TextEncoder().encode(text);
  if (globalThis.crypto && crypto.subtle) {
    const digest = await crypto.subtle.digest("SHA-256", bytes);
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  }
  return sha256Fallback(bytes);
}

// Plain SHA-256 for pages served over http to another machine (no crypto.subtle there).
function sha256Fallback(bytes) {
  const K = [];
  const H = [];
  const frac = (x) => ((x - Math.floor(x)) * 2 ** 32) | 0;
  for (let n = 2, found = 0; found < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) { prime = false; break; }
    if (!prime) continue;
    if (found < 8) H[found] = frac(n ** 0.5);
    K[found++] = frac(n ** (1 / 3));
  }
  const len = bytes.length;
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[len] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 4, len * 8);
  view.setUint32(padded.length - 8, Math.floor((len * 8) / 2 ** 32));
  const w = new Int32Array(64);
  for (let i = 0; i < padded.length; i += 64) {
    for (let j = 0; j < 16; j++) w[j] = view.getInt32(i + j * 4);
    for (let j = 16; j < 64; j++) {
      const a = w[j - 15], b = w[j - 2];
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      w[j] = (w[j - 16] + s0 + w[j - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = H;
    for (let j = 0; j < 64; j++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[j] + w[j]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    H[0] = (H[0] + a) | 0; H[1] = (H[1] + b) | 0; H[2] = (H[2] + c) | 0; H[3] = (H[3] + d) | 0;
    H[4] = (H[4] + e) | 0; H[5] = (H[5] + f) | 0; H[6] = (H[6] + g) | 0; H[7] = (H[7] + hh) | 0;
  }
  return H.map((x) => (x >>> 0).toString(16).padStart(8, "0")).join("");
}

/** Check a JSONL record's header against a commitment: {ok, computed}. */
export async function checkRecord(jsonl, expected) {
  const line = jsonl.split("\n")[0];
  const header = JSON.parse(line);
  // a 128-bit seed does not fit a JavaScript number: read its digits from the text
  const digits = (line.match(/"seed"\s*:\s*"?(\d+)/) || [])[1] || String(header.seed);
  // records of format 3 and later bind dice scheme 2; older ones scheme 1
  const dice = (header.format_version || 1) >= 3 ? 2 : 1;
  const computed = await commitment(digits, header.game, header.rules_version, header.options, dice);
  return { ok: computed === expected, computed, seed: digits };
}
