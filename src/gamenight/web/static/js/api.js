// HTTP API calls (docs/protocol.md). Errors become ApiError with the server's code.
// Every call asks for the page's language (Accept-Language), so a message the server words
// for people comes in it; the page still words a refusal by its code where it knows it.
import { language } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function call(method, path, body, token, type = "application/json") {
  const headers = { "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = type;
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const message = (data && (data.message || data.detail)) || response.statusText;
    throw new ApiError(response.status, (data && data.code) || String(response.status), message);
  }
  return data;
}

const HINT = "gamenight_signed_in";

/** Whether the browser holds a session (the server sets HINT beside it). */
export function mayBeSignedIn() {
  return document.cookie.split(";").some((c) => c.trim().startsWith(`${HINT}=`));
}

/** Drop a hint whose session has ended (expired, or signed out elsewhere). */
export function forgetSignIn() {
  document.cookie = `${HINT}=; Max-Age=0; Path=/; SameSite=Lax`;
}

export const api = {
  games: () => call("GET", "/api/games"),
  // a catalogue option's entries: the url is the option's catalogue.url from /api/games
  catalogue: (url) => call("GET", url),
  rooms: () => call("GET", "/api/rooms"),
  room: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}`),
  create: (body) => call("POST", "/api/rooms", body),
  // contribution: the player's part of the dice seed (fairness.js newContribution)
  claim: (code, seat, name, contribution) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/seats/${seat}/claim`, { name, contribution }),
  // the signed-in account, or null for a guest. The session is an HttpOnly cookie;
  // its readable hint spares a guest's page a refused request.
  me: () => !mayBeSignedIn() ? Promise.resolve(null) : call("GET", "/api/account").catch((err) => {
    if (err.status !== 401) throw err;
    forgetSignIn();
    return null;
  }),
  // the "your turn" list (turn-based rooms): the signed-in account's seats to act, and
  // those of the seats whose tokens this browser holds ([{code, seat, token}], at most 200)
  accountTurns: () => call("GET", "/api/account/turns"),
  turns: (seats) => call("POST", "/api/turns", { seats }),
  // a fresh seat token for a seat the signed-in account holds (the old one stops working)
  resume: (code, seat) =>
    call("POST", `/api/account/rooms/${encodeURIComponent(code)}/seats/${seat}/resume`),
  start: (code, hostToken) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/start`, undefined, hostToken),
  // the host frees a claimed seat (before the game, or during play one whose player is away)
  release: (code, seat, hostToken) =>
    call("POST", `/api/rooms/${encodeURIComponent(code)}/seats/${seat}/release`, undefined, hostToken),
  record: async (code) => {
    const response = await fetch(`/api/rooms/${encodeURIComponent(code)}/record`, { headers: { "Accept-Language": language() } });
    if (!response.ok) throw new ApiError(response.status, "no_record", await response.text());
    return response.text();
  },
  replay: (jsonl) => call("POST", "/api/replay", jsonl, undefined, "application/x-ndjson"),
  review: (jsonl) => call("POST", "/api/review", jsonl, undefined, "application/x-ndjson"),
  rules: async (game) => {
    const response = await fetch(`/api/games/${encodeURIComponent(game)}/rules`, { headers: { "Accept-Language": language() } });
    if (!response.ok) throw new ApiError(response.status, "no_rules", response.statusText);
    return response.text();
  },
};
