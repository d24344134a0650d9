// The fairness check, in the browser and by itself (docs/fairness.md):
// * the commitment (gamenight.core.seeds.commitment): sha256 over the canonical JSON of
//   scheme, seed, game, rules version, options, dice scheme and, in an online room with
//   player entropy, "entropy": "players-v2" (or "players-v1", older rooms; sha256-v3);
// * the dice seed of such a room (core.seeds.dice_seed): HMAC-SHA256 keyed with the
//   seed's decimal digits over {"contributions": [...], "scheme": "players-v1"};
// * each part the server made for a silent seat (players-v2, core.seeds.server_part):
//   HMAC-SHA256 keyed with the seed's digits over {"scheme": "server-part-v1", "seat": N};
// * this player's contribution: made here with crypto.getRandomValues (plus a word the
//   player may type), and found unchanged in the record at the end.
// The dice themselves are re-derived from the dice seed by `gamenight replay` and the
// Python hand check of docs/fairness.md (the browser does not know each game's order
// of throws).

/** Python's json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=True). */
export function canonicalJson(value) {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  }
  if (Array.isArray(value)) return "[" + value.map(canonicalJson).join(",") + "]";
  const keys = Object.keys(value).sort();
  return "{" + keys.map((k) => canonicalJson(k) + ":" + canonicalJson(value[k])).join(",") + "}";
}

export const PLAYERS = "players-v2";
const PLAYERS_V1 = "players-v1";
/** Whether a room's or record's entropy scheme takes the players' contributions. */
export const playerEntropy = (entropy) => entropy === PLAYERS || entropy === PLAYERS_V1;

export async function commitment(seed, game, rulesVersion, options, dice = 2, entropy = "server") {
  // dice scheme 1 (games committed before scheme 2) keeps the older payload without "dice"
  const fields = { scheme: dice === 1 ? "sha256-v1" : "sha256-v2", seed: String(seed), game, rules_version: rulesVersion, options };
  if (dice !== 1) fields.dice = dice;
  if (entropy !== "server") Object.assign(fields, { scheme: "sha256-v3", entropy });
  return hex(await sha256(ascii(canonicalJson(fields))));
}

/** The dice seed (decimal string) of a room with player entropy: seat-ordered values. */
export async function diceSeed(seedDigits, values) {
  const message = ascii(canonicalJson({ contributions: values, scheme: PLAYERS_V1 }));
  const mac = await hmacSha256(ascii(String(seedDigits)), message);
  return BigInt("0x" + hex(mac.slice(0, 16))).toString();
}

/** The part the server makes for a silent seat (players-v2): derived from the seed. */
export async function serverPart(seedDigits, seat) {
  const message = ascii(canonicalJson({ scheme: "server-part-v1", seat }));
  return hex(await hmacSha256(ascii(String(seedDigits)), message)).slice(0, 32);
}

/** A new contribution: 32 random hex digits, then the player's own word if they typed one. */
// The characters the server's text policy refuses (gamenight.core.text.refused_kind):
// control, bidirectional control, surrogate, private-use and unassigned code points, line
// and paragraph separators. Other format characters (ZWJ, ZWNJ, soft hyphen) are kept.
export const REFUSED = /[\p{Cc}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

export function newContribution(word = "") {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const clean = String(word).replace(REFUSED, "").trim().normalize("NFC");
  return (hex(bytes) + (clean ? " " + clean : "")).slice(0, 200);
}

const ascii = (text) => new TextEncoder().encode(text); // canonical JSON is ASCII only
const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

async function sha256(bytes) {
  if (globalThis.crypto && crypto.subtle) return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return sha256Fallback(bytes);
}

async function hmacSha256(key, message) {
  if (globalThis.crypto && crypto.subtle) {
    const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", k, message));
  }
  // RFC 2104 on the fallback hash (pages served over plain http to another machine)
  const block = key.length > 64 ? sha256Fallback(key) : key;
  const padded = new Uint8Array(64);
  padded.set(block);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) {
    inner[i] = padded[i] ^ 0x36;
    outer[i] = padded[i] ^ 0x5c;
  }
  inner.set(message, 64);
  outer.set(sha256Fallback(inner), 64);
  return sha256Fallback(outer);
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
  const out = new Uint8Array(32);
  const view32 = new DataView(out.buffer);
  H.forEach((x, i) => view32.setUint32(i * 4, x >>> 0));
  return out;
}

// Exposed for the tests (tests/web): the fallback must agree with crypto.subtle.
export const _fallback = { sha256: sha256Fallback };

/**
 * Check a JSONL record's header by itself: the revealed seed against the commitment
 * ``expected`` (the one this browser noted first), the dice seed against the seed and
 * the contributions, and (``mine``: {seat, value}) this player's own contribution.
 * Returns {ok, computed, seed, entropy, diceSeed, mine: true|false|null, servers:
 * true|false|null (the server's parts for silent seats re-derived from the seed)}.
 */
export async function checkRecord(jsonl, expected, mine = null) {
  const line = jsonl.split("\n")[0];
  const header = JSON.parse(line);
  // a 128-bit seed does not fit a JavaScript number: read its digits from the text
  const digits = (line.match(/"seed"\s*:\s*"?(\d+)/) || [])[1] || String(header.seed);
  // records of format 3 and later bind dice scheme 2; older ones scheme 1
  const dice = (header.format_version || 1) >= 3 ? 2 : 1;
  const entropy = header.entropy || "server";
  const computed = await commitment(digits, header.game, header.rules_version, header.options, dice, entropy);
  const parts = playerEntropy(entropy) ? header.contributions || [] : null;
  const seed = parts ? await diceSeed(digits, parts.map((p) => p.value)) : digits;
  // players-v2: every part the server made is re-derived (null: none, or an older room)
  let servers = null;
  const made = (parts || []).filter((p) => p.by === "server");
  if (entropy === PLAYERS && made.length) {
    servers = true;
    for (const p of made) if ((await serverPart(digits, p.seat)) !== p.value) servers = false;
  }
  let own = null;
  if (mine && mine.value) {
    const entry = (parts || []).find((p) => p.seat === mine.seat);
    own = !!entry && entry.by === "player" && entry.value === mine.value;
  }
  return { ok: computed === expected, computed, seed: digits, entropy, diceSeed: seed, contributions: parts, mine: own, servers };
}
