// The account page (docs/accounts.md): sign in or make an account (password or passkey),
// the signed-in account (its rooms, sessions, data), a player's profile (?player=NAME) and
// the leaderboards (?board=1, ?pool=POOL). Accounts are optional: the lobby works without.
// The session is an HttpOnly cookie the server sets; this page never sees the token.
import { h, s, replace, $ } from "./dom.js";
import { t, translatePage, errorText, formatNumber, formatDate, gameName, loadGameMessages } from "./i18n.js";
import { language } from "./i18n.js";
import { resume, resumable } from "./resume.js";
import { ApiError, call, forgetSignIn, mayBeSignedIn } from "./api.js";

translatePage();
const view = $("#view");
const params = new URLSearchParams(location.search);
// where a page that sent the player here to sign in wants them back: a room on this site
// only (never another site: an open redirect)
const back = /^\/r\/[A-Za-z0-9_-]{1,32}$/.test(params.get("back") || "") ? params.get("back") : null;

function showError(err) {
  const box = $("#error");
  box.hidden = !err;
  box.textContent = err ? errorText(err) : "";
}

// ----- passkeys: JSON from the server <-> the browser's ArrayBuffers (base64url) -----
const b64 = {
  decode: (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
  encode: (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
};

function credentialJSON(cred) {
  const r = cred.response;
  const out = { id: cred.id, rawId: b64.encode(cred.rawId), type: cred.type, response: {
    clientDataJSON: b64.encode(r.clientDataJSON) }, clientExtensionResults: cred.getClientExtensionResults() };
  if (r.attestationObject) {
    out.response.attestationObject = b64.encode(r.attestationObject);
    out.response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    out.response.authenticatorData = b64.encode(r.authenticatorData);
    out.response.signature = b64.encode(r.signature);
    if (r.userHandle) out.response.userHandle = b64.encode(r.userHandle);
  }
  return out;
}

async function passkeyUp(name) {
  const options = await call("POST", "/api/account/passkey/register/options", { name });
  const publicKey = { ...options, challenge: b64.decode(options.challenge),
    user: { ...options.user, id: b64.decode(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })) };
  const cred = await navigator.credentials.create({ publicKey });
  return call("POST", "/api/account/passkey/register/verify", credentialJSON(cred));
}

async function passkeyIn() {
  const options = await call("POST", "/api/account/passkey/signin/options");
  const publicKey = { ...options, challenge: b64.decode(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: b64.decode(c.id) })) };
  const cred = await navigator.credentials.get({ publicKey });
  return call("POST", "/api/account/passkey/signin/verify", credentialJSON(cred));
}

// ----- signed out -----
function field(id, key, type, autocomplete) {
  return [h("label", { for: id, text: t(key) }),
    h("input", { id, type, required: true, autocomplete, maxlength: type === "password" ? 200 : 40 })];
}

function form(id, titleKey, submitKey, onSubmit, passkeyKey, onPasskey) {
  const f = h("form", { id, class: "panel account-form", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title`, text: t(titleKey) }),
    ...field(`${id}-name`, "account.name", "text", "username"),
    ...field(`${id}-password`, "account.password", "password", id === "signup" ? "new-password" : "current-password"),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", text: t(submitKey) }),
      h("button", { type: "button", id: `${id}-passkey`, text: t(passkeyKey), onclick: () => run(() => onPasskey($(`#${id}-name`).value)) })));
  f.addEventListener("submit", (event) => {
    event.preventDefault();
    run(() => onSubmit($(`#${id}-name`).value, $(`#${id}-password`).value));
  });
  return f;
}

async function run(work) {
  showError(null);
  try {
    await work();
    if (back && mayBeSignedIn()) {
      location.assign(back);
      return;
    }
    await show();
  } catch (err) {
    showError(err instanceof ApiError ? err : { code: "", message: String(err.message || err) });
  }
}

function signedOut() {
  replace(view,
    form("signin", "account.signin", "account.signin_go",
      (name, password) => call("POST", "/api/account/signin", { name, password }),
      "account.passkey_in", () => passkeyIn()),
    form("signup", "account.signup", "account.signup_go",
      (name, password) => call("POST", "/api/account/signup", { name, password }),
      "account.passkey_up", (name) => passkeyUp(name)),
    h("p", { class: "hint", text: t("account.optional") }));
}

// ----- signed in -----
function signedIn(me) {
  const rooms = me.rooms.length
    ? h("ul", { class: "room-list" }, me.rooms.map((r) => h("li", { "data-code": r.room },
      h("a", { href: `/r/${encodeURIComponent(r.room)}`, text: `${r.room}` }), ` · ${gameName(r.game, r.game)} · `,
      t(`account.status.${r.status}`),
      resumable(r) ? [" ", h("button", { type: "button", class: "small resume", text: t("account.resume"),
        onclick: () => run(() => resume(r.room, r.seat, r.game)) })] : null)))
    : h("p", { text: t("account.rooms_none") });
  const sessions = h("ul", { class: "session-list" }, me.sessions.map((x) => h("li", {},
    h("bdi", { text: x.label || t("account.session_unknown") }), " · ",
    formatDate(new Date(x.seen_at * 1000)), x.current ? ` · ${t("account.session_this")}` : "")));
  const publicBox = h("input", { type: "checkbox", id: "public", checked: me.public,
    onchange: (e) => run(() => call("POST", "/api/account/settings", { public: e.target.checked })) });
  const confirmName = h("input", { id: "delete-name", type: "text", autocomplete: "off", maxlength: 40 });
  replace(view,
    h("section", { class: "panel", "aria-labelledby": "who" },
      h("h2", { id: "who" }, t("account.signed_in_as"), " ", h("bdi", { text: me.name })),
      h("p", {}, h("a", { href: `/account?player=${encodeURIComponent(me.name)}`, text: t("account.profile") })),
      h("label", { class: "check", for: "public" }, publicBox, h("span", { text: t("account.public") }))),
    h("section", { class: "panel", "aria-labelledby": "rooms-title" },
      h("h2", { id: "rooms-title", text: t("lobby.mine") }), rooms),
    h("section", { class: "panel", "aria-labelledby": "sessions-title" },
      h("h2", { id: "sessions-title", text: t("account.sessions") }), sessions,
      h("div", { class: "actions" },
        h("button", { type: "button", id: "signout", text: t("account.signout"),
          onclick: () => run(() => call("POST", "/api/account/signout", { which: "this" })) }),
        h("button", { type: "button", id: "signout-others", text: t("account.signout_others"),
          onclick: () => run(() => call("POST", "/api/account/signout", { which: "others" })) }),
        h("button", { type: "button", id: "signout-all", text: t("account.signout_all"),
          onclick: () => run(() => call("POST", "/api/account/signout", { which: "all" })) }))),
    h("section", { class: "panel", "aria-labelledby": "data-title" },
      h("h2", { id: "data-title", text: t("account.data") }),
      h("p", {}, h("a", { href: "/api/account/export", download: "gamenight-account.json", text: t("account.export") })),
      h("label", { for: "delete-name", text: t("account.delete_confirm") }), confirmName,
      h("div", { class: "actions" }, h("button", { type: "button", id: "delete", class: "danger", text: t("account.delete"),
        onclick: () => run(async () => {
          if (confirmName.value.trim() !== me.name) throw new ApiError(400, "", t("account.delete_mismatch"));
          await call("DELETE", "/api/account");
        }) }))));
}

// ----- profile and leaderboards -----
function plot(history) {
  if (history.length < 1) return null;
  const w = 320, hgt = 120, pad = 8;
  const lows = history.map((p) => p.mu - 3 * p.sigma), highs = history.map((p) => p.mu + 3 * p.sigma);
  const lo = Math.min(...lows, 0), hi = Math.max(...highs, 50);
  const x = (i) => pad + (history.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (history.length - 1));
  const y = (v) => hgt - pad - ((v - lo) * (hgt - 2 * pad)) / (hi - lo || 1);
  const line = history.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.mu).toFixed(1)}`).join(" ");
  return s("svg", { viewBox: `0 0 ${w} ${hgt}`, class: "rating-plot", role: "img",
    "aria-label": t("account.plot", { n: history.length, mu: formatNumber(history.at(-1).mu, { maximumFractionDigits: 1 }) }) },
  s("path", { d: line, fill: "none", stroke: "currentColor", "stroke-width": 2 }),
  ...history.map((p, i) => s("circle", { cx: x(i), cy: y(p.mu), r: 3, fill: "currentColor" })));
}

// a pool's id is its game and the options it sets apart: 'decathlon {"events":["100m"]}'
function poolName(pool) {
  const space = pool.indexOf(" ");
  const game = space < 0 ? pool : pool.slice(0, space);
  let options = {};
  try {
    options = space < 0 ? {} : JSON.parse(pool.slice(space + 1));
  } catch {
    return pool;
  }
  const parts = Object.entries(options).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(", ") : v}`);
  return [gameName(game, game), ...parts].join(" · ");
}

/** Load the games' names (their vocabulary) for the pools shown. */
function namesOf(pools) {
  const games = new Set(pools.map((p) => p.split(" ")[0]));
  return Promise.all([...games].map((g) => loadGameMessages(g)));
}

const one = (v) => formatNumber(v, { maximumFractionDigits: 1, minimumFractionDigits: 1 });

async function profile(name) {
  $("#title").textContent = name;
  const data = await call("GET", `/api/players/${encodeURIComponent(name)}`);
  await namesOf(data.pools.map((p) => p.pool));
  $("#title").replaceChildren(h("bdi", { text: data.name }));
  replace(view, data.pools.length ? data.pools.map((pool) => h("section", { class: "panel" },
    h("h2", { text: poolName(pool.pool) }),
    h("p", { text: t("account.rating_line", { rating: one(pool.rating.ordinal), mu: one(pool.rating.mu), sigma: one(pool.rating.sigma), count: pool.rating.games }) }),
    plot(pool.history),
    h("p", { text: Object.entries(pool.places).map(([place, n]) => t("account.place", { place, count: n })).join(" · ") })))
    : h("p", { text: t("account.no_rated") }),
  data.rooms.length ? h("section", { class: "panel" }, h("h2", { text: t("account.recent") }),
    h("ul", {}, data.rooms.map((r) => h("li", {}, h("a", { href: `/replay?room=${encodeURIComponent(r.room)}`, text: `${r.room} · ${r.game}` }))))) : null);
}

async function boards() {
  $("#title").textContent = t("account.boards");
  const pools = await call("GET", "/api/leaderboards");
  await namesOf(pools);
  const chosen = params.get("pool") || pools[0];
  const pick = h("select", { id: "pool", onchange: (e) => { location.search = `?board=1&pool=${encodeURIComponent(e.target.value)}`; } },
    pools.map((p) => h("option", { value: p, selected: p === chosen, text: poolName(p) })));
  if (!chosen) {
    replace(view, h("p", { text: t("account.no_boards") }));
    return;
  }
  const board = await call("GET", `/api/leaderboard?pool=${encodeURIComponent(chosen)}`);
  replace(view, h("section", { class: "panel" },
    h("label", { for: "pool", text: t("account.pool") }), pick,
    h("table", { class: "leaderboard" },
      h("caption", { text: poolName(chosen) }),
      h("thead", {}, h("tr", {}, ["#", t("account.player"), t("account.rating"), t("account.games")].map((c) => h("th", { scope: "col", text: c })))),
      h("tbody", {}, board.rows.map((row, i) => h("tr", {},
        h("td", { text: i + 1 }),
        h("td", {}, row.bot ? h("span", { text: t("account.bot", { name: row.name }) })
          : h("a", { href: `/account?player=${encodeURIComponent(row.name)}` }, h("bdi", { text: row.name }))),
        h("td", { text: one(row.rating.ordinal) }),
        h("td", { text: row.bot ? "—" : formatNumber(row.rating.games) })))))));
}

async function show() {
  try {
    if (params.get("player")) return await profile(params.get("player"));
    if (params.get("board")) return await boards();
    if (!mayBeSignedIn()) return signedOut();
    signedIn(await call("GET", "/api/account"));
  } catch (err) {
    if (err instanceof ApiError && err.code === "not_signed_in") {
      forgetSignIn();
      signedOut();
    }
    else showError(err);
  }
}

show();
