// What this browser remembers: the rooms it joined or hosted (tokens included), and the
// last display name. Everything lives in localStorage, so a reload or a closed tab costs
// nothing.
const KEY = "gamenight.rooms.v1";
const NAME = "gamenight.name";

function load() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

function save(rooms) {
  localStorage.setItem(KEY, JSON.stringify(rooms));
}

export function rooms() {
  return load();
}

export function room(code) {
  return load()[code] || null;
}

export function remember(code, fields) {
  const all = load();
  all[code] = { ...(all[code] || { created: Date.now() }), ...fields, touched: Date.now() };
  save(all);
  return all[code];
}

export function forget(code) {
  const all = load();
  delete all[code];
  save(all);
}

export function name() {
  return localStorage.getItem(NAME) || "";
}

export function setName(value) {
  localStorage.setItem(NAME, value);
}

/**
 * The room's commitment as this browser first saw it, noted once and never replaced
 * (docs/fairness.md): the end of the game is checked against this value, not against
 * what the server says at the end. Returns the noted {commitment, at}.
 */
export function noteCommitment(code, commitment, status) {
  const mine = room(code);
  if (mine && mine.commitment) {
    return { commitment: mine.commitment, at: mine.commitmentAt, status: mine.commitmentStatus };
  }
  const at = Date.now();
  remember(code, { commitment, commitmentAt: at, commitmentStatus: status });
  return { commitment, at, status };
}
