// The room page (/r/<code>): claim a seat, invite, spectate, start, play, chat, the end.
import { h, s as svg, replace, $ } from "./dom.js";
import { t, tOr, translatePage, loadGameMessages, errorText, gameName as nameOfGame } from "./i18n.js";
import { api, ApiError, mayBeSignedIn } from "./api.js";
import { Connection } from "./net.js";
import * as store from "./store.js";
import { loadRenderer, rendererFor } from "./games/index.js";
import { rendererContext } from "./context.js";
import { seatList, seatName, seatNames } from "./parts/seats.js";
import { connectionStatus } from "./parts/status.js";
import { LogPanel, describe } from "./parts/log.js";
import { advicePanel } from "./parts/hint.js";
import { chosenText } from "./parts/catalogue.js";
import { endPanel } from "./parts/end.js";
import { sentences } from "./parts/common.js";
import * as signal from "./parts/signal.js";
import { fairBox } from "./parts/fair.js";
import { rematch } from "./rematch.js";
import { mountRulesDrawer } from "./parts/rules-drawer.js";
import { limitText } from "./parts/text-field.js";
import { newContribution, playerEntropy } from "./fairness.js";
import { turnClockPanel, lateText } from "./parts/turnclock.js";

translatePage();
const NAME_CHARS = 40; // the server's limits, in code points (core/text.py; parts/text-field.js)
limitText($("#chat-input"), 300);
const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const arrivedByLink = takeDeviceLink();
const els = {
  title: $("#room-title"),
  status: $("#conn"),
  waiting: $("#waiting"),
  table: $("#table"),
  hint: $("#hint"),
  end: $("#end"),
  seats: $("#seats"),
  device: $("#device"),
  bar: $("#bar"),
  side: $("#side"),
  chat: $("#chat-list"),
  chatForm: $("#chat-form"),
  chatNote: $("#chat-note"),
  announce: $("#announce"),
  away: $("#away"),
  error: $("#error"),
  invite: $("#invite"),
  fair: $("#fair"),
};

const state = {
  room: null,
  claimDraft: null, // the name typed into the claim form, not yet sent
  game: null, // GameOut from /api/games
  catalogues: [], // [{opt, entries}]: the game's catalogue options (decks) and their entries
  seat: null,
  view: null,
  legal: [],
  toAct: [],
  seq: -1,
  finished: false,
  results: null,
  busy: false,
  local: {},
  localSeq: null,
  advice: null,
  hintOpen: false,
  odds: null, // the latest odds message {seq, odds} (rooms with odds on)
  starting: false, // the host's start is on its way
  rematching: false, // "Play again" is making the new room
  claiming: false, // true: a claim is on its way; "seated": answered, its socket not yet heard
  refocus: null, // after an action: {key} of the control that had the focus
  wasMyTurn: false, // the turn signal fires when this turns true
  turnSince: 0, // performance.now() when our turn began (the banner's pulse)
  signalReady: false, // not for the position a page opens on (a reload)
  clockEnds: null, // performance.now() when the turn clock runs out (rooms with a clock)
  freeing: null, // the seat the host is freeing
  word: "", // a word of the player's own for the dice, typed before sitting down
  canUndo: false, // the server says we may take back our last move now
  undoing: false, // an undo is on its way
  choosingLate: false, // a choice about a late seat is on its way (turn-based rooms)
  live: false, // the game ended while this page watched: the result moment plays
  offer: null, // the rematch offered at this table ({seat, name, code})
  accepting: false, // accepting the rematch is on its way
  clockNote: null, // {seq, text}: the turn clock made move seq for its player
  away: null, // the lines of what happened while the socket was gone (after a reconnect)
};
let conn = null;
const log = new LogPanel();
els.side.append(log.el);
let renderer = null;

function say(text) {
  // aria-live announcement of results and turns
  els.announce.textContent = "";
  setTimeout(() => (els.announce.textContent = text), 30);
}

function showError(text) {
  els.error.textContent = text || "";
  els.error.hidden = !text;
  if (text) setTimeout(() => { if (els.error.textContent === text) showError(""); }, 6000);
}

function names() {
  return seatNames(state.room?.seats, state.game);
}

/** A "continue on another device" link opened here: keep its seat, drop it from the URL. */
function takeDeviceLink() {
  const params = new URLSearchParams(location.hash.slice(1));
  const token = params.get("token");
  if (!token) return false;
  const seat = Number(params.get("seat"));
  const fields = { token, seat: Number.isInteger(seat) ? seat : null };
  // this player's part of the dice, so that this device checks it at the end too
  if (params.get("part")) fields.contribution = params.get("part");
  store.remember(code, fields);
  // the fragment never reached the server; it leaves the address bar and the history too
  history.replaceState(history.state, "", location.pathname + location.search);
  return true;
}

function deviceLink() {
  const mine = store.room(code) || {};
  if (state.seat === null || !mine.token) return null;
  const part = mine.contribution ? `&part=${encodeURIComponent(mine.contribution)}` : "";
  return `${location.origin}/r/${encodeURIComponent(code)}#seat=${state.seat}&token=${encodeURIComponent(mine.token)}${part}`;
}

function ctx() {
  if (state.localSeq !== state.seq) {
    state.local = {};
    state.localSeq = state.seq;
  }
  return rendererContext({
    view: state.view,
    legal: state.legal,
    seat: state.seat,
    toAct: state.toAct,
    names: names(),
    room: state.room,
    game: state.game,
    finished: state.finished,
    local: state.local,
    // no control works while the socket is not known to be up: a move is sent or not,
    // never queued behind a dead socket
    busy: state.busy || !online(),
    act,
    rerender: render,
    odds: state.odds,
  });
}

function online() {
  return !!conn && conn.status === "online";
}

/** One action. Its socket lost on the way, it goes again on the next one (net.js), so the
 * answer says for sure whether it was applied: `ack` (once, even if both copies arrived)
 * or a refusal, which the player is shown; while the socket is down nothing is sent. */
async function act(action) {
  if (!conn || state.busy) return;
  rememberFocus();
  state.busy = true;
  state.advice = null;
  state.away = null;
  render();
  try {
    const answer = await conn.request({ type: "act", action, expected_seq: state.seq }, { again: true });
    if (answer.type === "error") {
      if (answer.code !== "stale") showError(errorText(answer));
      else if (answer.resent) showError(t("error.not_applied"));
    }
  } catch (err) {
    showError(t("error.not_sent"));
  } finally {
    state.busy = false;
    render();
  }
}

async function askHint() {
  if (!conn) return;
  state.hintOpen = true;
  state.advice = { loading: true };
  render();
  try {
    const answer = await conn.request({ type: "hint" });
    state.advice = answer.type === "advice" ? { data: answer.advice, seq: answer.seq } : { error: errorText(answer) };
  } catch {
    state.advice = { error: t("error.offline") };
  }
  render();
}

/** Claim `seat` with the typed name. One claim at a time: a double tap sends one. */
async function claim(seat) {
  if (state.claiming) return;
  const input = $("#claim-name");
  const name = (input ? input.value : state.claimDraft || "").trim();
  if (!name) {
    if (input) input.focus();
    showError(t("room.name_needed"));
    return;
  }
  state.claiming = true;
  render();
  try {
    // this player's part of the dice seed, made here (docs/fairness.md); a seat freed
    // during play joins dice already seeded: no contribution then
    const contribution = state.room.status === "waiting" ? newContribution(state.word) : undefined;
    const claimed = await api.claim(code, seat, name, contribution);
    store.setName(name);
    store.remember(code, { seat: claimed.seat, token: claimed.token, game: state.room.game, name, contribution });
    state.claimDraft = null;
    // the buttons keep waiting until the seat's own socket says we sit there: until
    // then the room we know still shows this seat open, and a second tap (a slow
    // double tap, a busy phone) would claim it again (onSnapshot ends the wait)
    state.claiming = "seated";
    connect(claimed.token);
  } catch (err) {
    state.claiming = false;
    // a second claim of ours that lost to the first (two taps, two tabs) is no error
    const mine = store.room(code);
    if (!(err.status === 409 && mine && mine.token)) showError(errorText(err));
  } finally {
    render();
  }
}

/** The host starts the game. One start at a time: a double tap starts once, and the
 * answer's room (no longer waiting) takes the button away before another tap. */
async function startGame(hostToken) {
  if (state.starting) return;
  state.starting = true;
  render();
  try {
    state.room = await api.start(code, hostToken);
  } catch (err) {
    // begun already (another tab of the host's started it) is no error
    if (!(err.status === 409 && err.code === "not_waiting")) showError(errorText(err));
  } finally {
    state.starting = false;
    render();
  }
}

/** The name field and one "Sit at …" button per open seat. */
function claimBox(open) {
  // What the player typed survives a re-render (a room update while they type):
  // the draft lives in the state, and the data-key keeps the focus (replace()).
  const nameInput = h("input", {
    id: "claim-name", type: "text", autocomplete: "nickname",
    value: state.claimDraft ?? store.name(), required: true, "data-key": "claim-name",
    oninput: (e) => { state.claimDraft = e.target.value; },
    onkeydown: (e) => { if (e.key === "Enter" && open.length === 1) claim(open[0].seat); },
  });
  limitText(nameInput, NAME_CHARS);
  // a rated room seats only signed-in players (the server refuses a guest's claim with
  // rated_room): say so before the claim, with the way to sign in and come back
  if (!state.room.room_options?.rated) return claimForm(nameInput, open);
  const note = h("p", { class: "rated-note", text: t("room.rated_note") });
  if (mayBeSignedIn()) return h("div", {}, note, claimForm(nameInput, open));
  return h("div", { class: "claim" }, note,
    h("a", { class: "button primary", id: "rated-signin", href: `/account?back=${encodeURIComponent(`/r/${code}`)}` },
      t("room.rated_signin")));
}

function claimForm(nameInput, open) {
  return h("div", { class: "claim" },
    h("label", { for: "claim-name" }, t("room.your_name")),
    nameInput,
    open.length
      ? h("div", { class: "actions" }, open.map((s) =>
          h("button", {
            type: "button", class: "primary claim-seat", "data-key": `claim-${s.seat}`,
            disabled: !!state.claiming, "aria-busy": state.claiming ? "true" : null,
            onclick: () => claim(s.seat),
          }, t("room.claim", { seat: seatName(s, state.game) }))))
      : h("p", {}, t("room.no_open_seat")));
}

function openSeats() {
  return (state.room?.seats || []).filter((s) => s.kind === "human" && !s.claimed);
}

function renderWaiting() {
  const room = state.room;
  if (!room || room.status !== "waiting") {
    els.waiting.hidden = true;
    return;
  }
  els.waiting.hidden = false;
  const mine = store.room(code) || {};
  const isHost = !!mine.hostToken;
  const url = inviteUrl();
  replace(
    els.waiting,
    h("h2", {}, t("room.waiting")),
    h("div", { class: "invite-box" },
      h("p", {}, t("room.invite_help")),
      h("code", { class: "invite-url" }, url),
      isLoopback(new URL(url).hostname) ? h("p", { class: "muted invite-local" }, t("room.invite_local")) : null,
      h("button", { type: "button", "data-key": "copy-invite", onclick: () => els.invite.click() }, t("room.invite"))),
    state.seat === null
      ? [claimBox(openSeats()), h("p", { class: "muted" }, t("room.spectating"))]
      : h("p", {}, t("room.seated", { name: names()[state.seat], n: state.seat + 1 })),
    isHost
      ? h("div", { class: "host" },
          h("p", {}, t("room.host_note")),
          h("button", {
            type: "button", class: "primary", id: "start", "data-key": "start",
            disabled: state.starting, "aria-busy": state.starting ? "true" : null,
            onclick: () => startGame(mine.hostToken),
          }, t("room.start")))
      : h("p", { class: "muted" }, t("room.wait_host")),
  );
}

/** Who is to act, in words, and whether it is us. */
function turnText() {
  const c = ctx();
  if (c.myTurn) return { mine: true, text: t("room.your_turn") };
  const who = state.toAct.map((s) => names()[s]).filter(Boolean);
  if (!who.length) return null;
  return { mine: false, text: t("room.to_play", { names: who.join(", "), count: who.length }) };
}

function clockLeft() {
  if (state.clockEnds === null) return null;
  return Math.max(0, Math.ceil((state.clockEnds - performance.now()) / 1000));
}

function clockIcon() {
  return svg("svg", { viewBox: "0 0 24 24", class: "clock-icon", "aria-hidden": "true", focusable: "false" },
    svg("circle", { cx: 12, cy: 13, r: 8 }),
    svg("path", { d: "M12 9v4l3 2M9 2h6" }));
}

function clockText(left) {
  const m = Math.floor(left / 60);
  const sec = String(left % 60).padStart(2, "0");
  return t("room.clock", { time: `${m}:${sec}` });
}

/** The turn clock runs for a person (not while a bot plays). */
function clockShown() {
  if (state.clockEnds === null || state.finished || state.room?.status !== "playing") return false;
  return state.toAct.some((s) => {
    const seat = state.room.seats[s];
    return seat && seat.kind === "human" && !seat.takeover;
  });
}

/** Turn-based rooms: this player's choice about a late seat (keep waiting, or a bot). */
async function chooseLate(choice) {
  if (!conn || state.choosingLate) return;
  state.choosingLate = true;
  renderBar();
  try {
    const answer = await conn.request({ type: "late", choice });
    if (answer.type === "error") showError(errorText(answer));
  } catch (err) {
    showError(err.message || String(err));
  } finally {
    state.choosingLate = false;
    renderBar();
  }
}

function toggle(kind, label) {
  const on = signal.enabled(kind);
  return h("button", {
    type: "button", class: `signal-toggle ${on ? "on" : ""}`, "data-key": `signal-${kind}`,
    "aria-pressed": on ? "true" : "false",
    onclick: async () => {
      const now = await signal.setEnabled(kind, !signal.enabled(kind));
      if (kind === "notify" && !now && !signal.enabled(kind) && typeof Notification === "function" && Notification.permission === "denied") {
        showError(t("signal.denied"));
      }
      renderBar();
    },
  }, label);
}

const PULSE_MS = 2400; // .turn-banner.fresh's animation (app.css)

function banner(turn) {
  const el = h("p", { class: `turn-banner ${turn.mine ? "mine" : ""}`, "data-turn": turn.mine ? "mine" : "other" }, turn.text);
  const since = turn.mine && state.turnSince ? performance.now() - state.turnSince : Infinity;
  if (since < PULSE_MS) {
    // a redraw in the middle of the pulse goes on where it was (CSSOM, not a style attribute)
    el.classList.add("fresh");
    el.style.animationDelay = `-${Math.round(since)}ms`;
  }
  return el;
}

function renderBar() {
  const room = state.room;
  if (!room || !["playing", "finished"].includes(room.status) || !state.view) {
    els.bar.hidden = true;
    return;
  }
  const turn = state.finished ? null : turnText();
  els.bar.classList.toggle("mine", !!turn?.mine);
  const watching = state.seat === null;
  const spectators = room.spectators || 0;
  const open = watching && room.status === "playing" ? openSeats() : [];
  const left = clockShown() ? clockLeft() : null;
  // nothing to say (the game is over, nobody watches): no empty box
  els.bar.hidden = !turn && !watching && !spectators && state.finished;
  replace(
    els.bar,
    h("div", { class: "bar-main" },
      watching ? h("span", { class: "tag watching-tag" }, t("room.watching")) : null,
      turn ? banner(turn) : null,
      left !== null
        ? h("span", { class: `turn-clock ${left <= 10 ? "low" : ""}`, role: "timer", "aria-live": "off", "data-left": left },
            clockIcon(), h("span", { class: "clock-text" }, clockText(left)))
        : null),
    h("div", { class: "bar-side" },
      spectators ? h("span", { class: "spectators", "data-count": spectators }, t("room.spectators", { count: spectators })) : null,
      !watching && !state.finished
        ? h("div", { class: "signals", role: "group", "aria-label": t("signal.title") },
            toggle("sound", t("signal.sound")),
            signal.notificationsAvailable() ? toggle("notify", t("signal.notify")) : null)
        : null),
    state.canUndo && !state.finished && state.seat !== null
      ? h("div", { class: "bar-undo" },
          h("button", {
            type: "button", id: "undo", class: "undo", "data-key": "undo",
            disabled: state.busy || state.undoing || !online(), "aria-busy": state.undoing ? "true" : null,
            onclick: undoMove,
          }, t("room.undo")))
      : null,
    state.clockNote && state.clockNote.seq === state.seq
      ? h("p", { class: "clock-note", role: "note" }, state.clockNote.text)
      : null,
    room.clock && !state.finished
      ? turnClockPanel({ clock: room.clock, seat: state.seat, names: names(), busy: state.choosingLate || !online(), choose: chooseLate })
      : null,
    open.length
      ? h("div", { class: "bar-claim" }, h("p", {}, t("room.seat_free_in_play")), claimBox(open))
      : null,
  );
}

function renderTable() {
  if (!state.view) {
    els.table.hidden = true;
    return;
  }
  els.table.hidden = false;
  // a redraw never drops the focus to <body>: replace() keeps it by data-key; a focused
  // element without one (a scrolling sheet's region), or one that is gone or disabled
  // now, hands it to the same key's control or the table's first enabled control
  const active = document.activeElement;
  const had = active && active !== els.table && els.table.contains(active);
  const key = had && active.dataset ? active.dataset.key : undefined;
  replace(els.table, renderer.render(ctx()));
  if (had && !els.table.contains(document.activeElement)) focusInTable(key);
}

/** Focus the table's control with data-key `key` if enabled, else its first enabled
 * control, else the table itself (it waits there); true if a control got it. */
function focusInTable(key) {
  const same = key !== undefined ? els.table.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
  const target = same && same.matches(CONTROLS) ? same : els.table.querySelector(CONTROLS);
  if (target && !state.busy) {
    target.focus({ preventScroll: true });
    return true;
  }
  if (document.activeElement !== els.table) els.table.focus({ preventScroll: true });
  return false;
}

function renderHint() {
  const hints = state.room?.room_options?.hints && state.seat !== null && !state.finished && state.view;
  if (!hints) {
    els.hint.hidden = true;
    return;
  }
  els.hint.hidden = false;
  const c = ctx();
  const stale = state.advice && state.advice.seq !== undefined && state.advice.seq !== state.seq;
  // what the panel shows, for tests to wait on: closed, loading, shown or error
  els.hint.dataset.state = !state.advice || stale ? "closed" : state.advice.loading ? "loading" : state.advice.error ? "error" : "shown";
  replace(
    els.hint,
    h("button", { type: "button", id: "hint-button", "data-key": "hint", disabled: !c.myTurn, "aria-expanded": state.hintOpen ? "true" : "false", onclick: askHint }, t("hint.ask")),
    state.advice && !stale
      ? state.advice.loading
        ? h("p", { class: "muted" }, t("hint.loading"))
        : state.advice.error
          ? h("p", { class: "muted" }, state.advice.error)
          : advicePanel(state.advice.data, c.myTurn ? (a) => act(a) : null)
      : null,
  );
}

async function freeSeat(seat) {
  const mine = store.room(code) || {};
  if (!mine.hostToken || state.freeing !== null) return;
  state.freeing = seat;
  renderSeats();
  try {
    const info = await api.release(code, seat, mine.hostToken);
    state.room = info;
    say(t("seat.freed", { n: seat + 1 }));
  } catch (err) {
    showError(errorText(err));
  } finally {
    state.freeing = null;
    render();
  }
}

/** The host's button to free a seat: a claimed one before the game, an away one in play. */
function hostTools(seat) {
  const mine = store.room(code) || {};
  const status = state.room.status;
  if (!mine.hostToken || seat.kind !== "human" || !seat.claimed || seat.seat === state.seat) return null;
  if (status === "playing" && seat.connected) return null;
  if (status !== "waiting" && status !== "playing") return null;
  return h("button", {
    type: "button", class: "free-seat", "data-key": `free-${seat.seat}`, disabled: state.freeing !== null,
    "aria-label": t("seat.free_label", { name: seatName(seat, state.game) }),
    onclick: () => freeSeat(seat.seat),
  }, t("seat.free"));
}

function noted() {
  // the commitment as this browser first saw it (kept in localStorage, never replaced)
  return state.room ? store.noteCommitment(code, state.room.commitment, state.room.status) : null;
}

function myContribution() {
  const remembered = store.room(code) || {};
  return state.seat === null || !remembered.contribution ? null : { seat: state.seat, value: remembered.contribution };
}

function renderFair() {
  const room = state.room;
  if (!room || room.status === "finished" || room.status === "broken") {
    els.fair.hidden = true; // the end panel shows the check
    return;
  }
  els.fair.hidden = false;
  replace(els.fair, fairBox({
    room, noted: noted(), mine: myContribution(), word: state.word, seated: state.seat !== null,
    onWord: (value) => { state.word = value; },
  }));
}

function contributeIfMissing() {
  // a seat claimed elsewhere (another tab, another device) or by a client that sent no
  // contribution: add ours while the room waits; the server answers once per seat
  const room = state.room;
  if (!conn || !room || !playerEntropy(room.entropy) || room.status !== "waiting" || state.seat === null) return;
  if (room.seats[state.seat]?.contributed) return;
  const remembered = store.room(code) || {};
  const value = remembered.contribution || newContribution(state.word);
  store.remember(code, { contribution: value });
  conn.request({ type: "contribute", value }).catch(() => {});
}

/** The entries of the game's catalogue options (its decks), to say which one the room
 * plays and in which language; none if the server cannot list them. */
async function loadCatalogues() {
  const options = (state.game?.options || []).filter((o) => o.catalogue);
  state.catalogues = await Promise.all(options.map(async (opt) =>
    ({ opt, entries: await api.catalogue(opt.catalogue.url).catch(() => []) })));
}

/** "Deck: Gamenight standard deck (English, 48 cards)": each catalogue option's choice. */
function catalogueFacts() {
  const facts = (state.catalogues || []).map(({ opt, entries }) => {
    const text = chosenText(state.game, opt, entries, state.room.options?.[opt.name]);
    const label = tOr(`opt.${state.game.id}.${opt.name}`, opt.name);
    return text ? h("li", { class: "catalogue-fact", dataset: { option: opt.name } }, t("catalogue.chosen", { option: label, entry: text })) : null;
  }).filter(Boolean);
  return facts.length ? h("ul", { class: "room-facts" }, facts) : null;
}

function renderSeats() {
  if (!state.room) return;
  const spectators = state.room.spectators || 0;
  // a rated room says so where its players are listed (issue 43)
  const rated = state.room.room_options?.rated
    ? [" ", h("span", { class: "rated-badge", id: "rated-badge", text: t("room.rated") })] : null;
  replace(els.seats, h("h2", {}, t("seats.title"), rated),
    seatList({ seats: state.room.seats, me: state.seat, toAct: state.finished ? [] : state.toAct, gameInfo: state.game, extra: hostTools }),
    // at the table the bar above it says it (renderBar); in the waiting room, here
    spectators && els.bar.hidden ? h("p", { class: "muted spectator-count" }, t("room.spectators", { count: spectators })) : null,
    catalogueFacts(),
    state.room.notes?.length ? h("ul", { class: "notes" }, state.room.notes.map((n) => h("li", {}, n))) : null);
}

function renderDevice() {
  const link = deviceLink();
  if (!link || state.finished) {
    els.device.hidden = true;
    els.device.replaceChildren();
    delete els.device.dataset.link;
    return;
  }
  els.device.hidden = false;
  if (els.device.dataset.link === link) return; // keep it as it is (open, copied)
  els.device.dataset.link = link;
  const copy = h("button", { type: "button", "data-key": "device-copy" }, t("device.copy"));
  const field = h("input", { id: "device-url", type: "text", readonly: true, value: link, class: "device-url", "data-key": "device-url" });
  copy.addEventListener("click", async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      say(t("device.copied"));
      copy.textContent = t("device.copied");
      setTimeout(() => (copy.textContent = t("device.copy")), 2500);
    } catch {
      /* the field is selected: the player copies it by hand */
    }
  });
  replace(els.device,
    h("details", { class: "device-box" },
      h("summary", {}, t("device.title")),
      h("p", { class: "device-warning" }, t("device.warning")),
      h("label", { for: "device-url" }, t("device.link")),
      field,
      h("div", { class: "actions" }, copy)));
}

function renderEnd() {
  const room = state.room;
  if (!room || !["finished", "closed", "broken"].includes(room.status)) {
    els.end.hidden = true;
    return;
  }
  els.end.hidden = false;
  replace(els.end, endPanel({
    room, names: names(), game: state.game, onAgain: playAgain, againBusy: state.rematching, noted: noted(), mine: myContribution(),
    me: state.seat, live: state.live, offer: state.offer, onAccept: acceptRematch, acceptBusy: state.accepting,
  }));
}

function render() {
  if (!state.room) return;
  const c = ctx();
  const myTurn = c.myTurn && !state.finished;
  // state for tests and styling: the seq shown, the room status, whether we must act
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.room.status;
  document.body.dataset.myTurn = String(myTurn && !state.busy && online());
  document.body.dataset.seat = state.seat === null ? "" : String(state.seat);
  document.body.dataset.watching = String(state.seat === null);
  const gameName = nameOfGame(state.room.game, state.game ? state.game.name : state.room.game);
  document.title = myTurn ? t("room.title_turn", { game: gameName }) : t("room.title", { game: gameName });
  els.title.textContent = gameName;
  if (myTurn && !state.wasMyTurn) state.turnSince = performance.now();
  if (myTurn && !state.wasMyTurn && state.signalReady) {
    signal.yourTurn({ title: t("room.title_turn", { game: gameName }), body: t("signal.body", { game: gameName }), tag: `gamenight-${code}` });
  }
  state.wasMyTurn = myTurn;
  renderWaiting();
  renderBar();
  renderTable();
  renderHint();
  renderSeats();
  renderDevice();
  renderChat();
  renderFair();
  renderEnd();
  renderAway();
  log.el.hidden = !log.count; // no empty "What happened" box before the first event
  restoreFocus();
}

function awayTitle(count) {
  return count ? t("room.away", { count }) : t("room.away_none");
}

const AWAY_LINES = 6; // the latest lines of what was missed; the log holds them all

/** "While you were away: …" after a reconnect, until the next move or a dismissal. */
function renderAway() {
  const away = state.away;
  const el = els.away;
  if (!away) {
    el.hidden = true;
    el.replaceChildren();
    return;
  }
  el.hidden = false;
  const lines = away.lines.slice(-AWAY_LINES);
  const more = away.lines.length - lines.length;
  replace(el,
    h("p", { class: "away-title" }, awayTitle(away.lines.length)),
    lines.length ? h("ul", { class: "away-lines" }, lines.map((line) => h("li", {}, line))) : null,
    more > 0 ? h("p", { class: "muted" }, t("room.away_more", { count: more })) : null,
    away.mine ? h("p", { class: "away-turn" }, t("room.your_turn")) : null,
    h("button", { type: "button", class: "away-close", "data-key": "away-close", onclick: () => { state.away = null; render(); } }, t("room.away_close")));
}

function renderChat() {
  const seated = state.seat !== null;
  els.chatForm.hidden = !seated;
  els.chatNote.hidden = seated;
}

/** Before an action: which control had the focus (in the table or the hint panel). */
function rememberFocus() {
  const active = document.activeElement;
  const inside = active && (els.table.contains(active) || els.hint.contains(active));
  state.refocus = inside ? { key: active.dataset ? active.dataset.key : undefined } : null;
}

const CONTROLS = "button:not(:disabled), input:not(:disabled):not([type=hidden]), select:not(:disabled), textarea:not(:disabled), a[href], [tabindex='0']";

/**
 * After an action the control the player used may be gone or disabled (every control is
 * while the action is on its way): the focus goes back to it when it is there again,
 * else to the first enabled control of the table, and waits on the table meanwhile, so
 * that the next move never starts again at "Skip to content".
 */
function restoreFocus() {
  const want = state.refocus;
  if (!want) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || active === els.table || !active.isConnected;
  if (!lost) {
    // the player went on (replace() kept the same control, or they moved elsewhere)
    state.refocus = null;
    return;
  }
  if (els.table.hidden) {
    state.refocus = null;
    return;
  }
  if (focusInTable(want.key)) state.refocus = null;
}

async function playAgain() {
  // the same seats and options, this player in the same seat (rematch.js, shared with the
  // lobby's "Your games"); the new link goes to the others through the chat
  // one at a time: a double tap makes one room (the button waits until we leave)
  if (state.rematching) return;
  state.rematching = true;
  render();
  const mine = store.room(code) || {};
  try {
    const next = await rematch(state.room, { seat: state.seat, name: mine.name || store.name() || names()[state.seat] });
    // offered to everyone at the table (a `rematch` message: each page shows it with
    // an accept button), then this player goes to the new room
    if (conn && state.seat !== null) await conn.request({ type: "rematch", code: next }).catch(() => null);
    location.assign(`/r/${next}`);
  } catch (err) {
    state.rematching = false;
    render();
    showError(errorText(err));
  }
}

function chatLine(msg) {
  // chat text is data: inserted as text; a rematch link to this server becomes a link
  const text = String(msg.text || "");
  const match = text.match(new RegExp(`${location.origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/r/([A-Za-z0-9_-]+)$`));
  return h("li", {},
    h("b", {}, h("bdi", {}, msg.name || t("chat.spectator"))), ": ",
    match ? [text.slice(0, match.index), h("a", { href: `/r/${match[1]}` }, `/r/${match[1]}`)] : text);
}

function onSnapshot(msg) {
  if (state.claiming === "seated") state.claiming = false; // the claimed seat's first frame
  // a snapshot after a lost socket, for the same seat: say what happened meanwhile
  const back = state.view !== null && msg.view !== null && msg.seat === state.seat;
  const before = state.seq;
  state.room = msg.room;
  state.seat = msg.seat;
  state.view = msg.view;
  state.legal = msg.legal || [];
  state.toAct = msg.to_act || [];
  state.seq = msg.seq;
  state.finished = msg.finished;
  state.results = msg.results;
  state.odds = msg.odds || null;
  state.canUndo = !!msg.undo;
  state.offer = msg.rematch || null;
  setClock(msg.clock_left);
  renderer = rendererFor(msg.room.game);
  if (msg.seat !== null && msg.seat !== undefined) store.remember(code, { seat: msg.seat, game: msg.room.game, status: msg.room.status });
  const c = ctx();
  // a snapshot's events are stamped ({seq, event}); the renderer gets the bare event
  const missed = [];
  for (const stamped of msg.events || []) {
    const line = describe(renderer, stamped.event, c);
    log.add(line);
    if (back && line && stamped.seq > before) missed.push(line);
  }
  state.away = back ? { lines: missed, mine: c.myTurn && !state.finished } : state.away;
  if (back) say(sentences([awayTitle(missed.length), ...missed.slice(-3), ...(c.myTurn ? [t("room.your_turn")] : [])]));
  if (msg.chat) {
    els.chat.replaceChildren(...msg.chat.map(chatLine));
  }
  if (arrivedByLink && msg.seat !== null && msg.seat !== undefined && !state.signalReady) {
    say(t("device.arrived", { name: names()[msg.seat] }));
  }
  render();
  state.signalReady = true;
  contributeIfMissing();
}

function setClock(left) {
  state.clockEnds = typeof left === "number" ? performance.now() + left * 1000 : null;
}

// the turn clock ticks in place (no redraw of the bar)
setInterval(() => {
  const el = els.bar.querySelector(".turn-clock");
  if (!el) return;
  const left = clockLeft();
  if (left === null) return;
  el.querySelector(".clock-text").textContent = clockText(left);
  el.dataset.left = String(left);
  el.classList.toggle("low", left <= 10);
}, 500);

function onEvents(msg) {
  if (msg.finished && !state.finished) state.live = true; // the end, seen as it happens
  state.canUndo = !!msg.undo;
  state.view = msg.view;
  state.legal = msg.legal || [];
  state.toAct = msg.to_act || [];
  state.seq = msg.seq;
  state.finished = msg.finished;
  state.results = msg.results;
  const c = ctx();
  const lines = [];
  if (msg.by === "clock" && msg.seat !== null && msg.seat !== undefined) {
    // the turn clock ran out: a bot made this move for the player, and the table says so
    const note = msg.seat === state.seat ? t("room.clock_moved_mine") : t("room.clock_moved", { name: names()[msg.seat] });
    log.add(note, "clock-note");
    lines.push(note);
    state.clockNote = { seq: msg.seq, text: note };
  }
  for (const event of msg.events || []) {
    const line = describe(renderer, event, c);
    log.add(line);
    if (line) lines.push(line);
  }
  if (c.myTurn) lines.push(t("room.your_turn"));
  if (lines.length) say(sentences(lines.slice(-3)));
  setClock(msg.clock_left);
  render();
}

/** ``undone``: someone took back their last move; the table is one seq back. */
function onUndone(msg) {
  state.view = msg.view;
  state.legal = msg.legal || [];
  state.toAct = msg.to_act || [];
  state.seq = msg.seq;
  state.finished = msg.finished;
  state.canUndo = false;
  state.odds = null; // those of the undone position; the server sends the new ones
  const line = msg.seat === state.seat ? t("room.undone_mine") : t("room.undone", { name: names()[msg.seat] });
  log.add(line, "undo-note");
  const c = ctx();
  say(sentences(c.myTurn ? [line, t("room.your_turn")] : [line]));
  setClock(msg.clock_left);
  render();
}

/** Take back our last move (offered only while the server says we may). */
async function undoMove() {
  if (!conn || state.undoing || state.busy) return;
  state.undoing = true;
  render();
  try {
    const answer = await conn.request({ type: "undo", expected_seq: state.seq });
    if (answer.type === "error" && answer.code !== "stale") showError(errorText(answer));
  } catch {
    showError(t("error.not_sent"));
  } finally {
    state.undoing = false;
    render();
  }
}

/** Accept the rematch offered here: sit in the same seat of the new room (a spectator
 * just goes to watch it). */
async function acceptRematch() {
  const offer = state.offer;
  if (!offer || state.accepting) return;
  state.accepting = true;
  render();
  const mine = store.room(code) || {};
  const name = mine.name || store.name() || (state.seat !== null ? names()[state.seat] : "");
  if (state.seat !== null && name) {
    try {
      const contribution = newContribution();
      const claimed = await api.claim(offer.code, state.seat, name, contribution);
      store.setName(name);
      store.remember(offer.code, { seat: claimed.seat, token: claimed.token, game: state.room.game, name, contribution });
    } catch (err) {
      // the seat is someone else's by now (or ours already, from another tab): watch
      if (!(err instanceof ApiError) || err.status !== 409) {
        state.accepting = false;
        render();
        showError(errorText(err));
        return;
      }
    }
  }
  location.assign(`/r/${encodeURIComponent(offer.code)}`);
}

function connect(token) {
  if (conn) conn.close();
  log.clear();
  conn = new Connection(code, token);
  replace(els.status, connectionStatus(conn));
  conn.addEventListener("status", (e) => {
    document.body.dataset.conn = e.detail;
    render(); // the controls wait while the socket is down
  });
  document.body.dataset.conn = conn.status;
  conn.addEventListener("snapshot", (e) => onSnapshot(e.detail));
  conn.addEventListener("events", (e) => onEvents(e.detail));
  conn.addEventListener("undone", (e) => onUndone(e.detail));
  conn.addEventListener("rematch", (e) => {
    state.offer = e.detail;
    if (e.detail.seat !== state.seat) say(t("end.rematch_offer", { name: e.detail.name }));
    render();
  });
  conn.addEventListener("room", (e) => {
    const before = state.room?.status;
    state.room = e.detail.room;
    store.remember(code, { status: state.room.status });
    if (before !== state.room.status) say(t(`room.status.${state.room.status}`));
    render();
  });
  conn.addEventListener("late", (e) => {
    // a player chose what happens to a late seat (turn-based rooms): the log says so
    const line = lateText(e.detail.choice, names(), state.seat);
    log.add(line, "clock-note");
    say(line);
    render();
  });
  conn.addEventListener("odds", (e) => {
    // the same for every socket of the room; an older position's odds never replace newer
    if (state.odds && e.detail.seq < state.odds.seq) return;
    state.odds = e.detail;
    renderTable();
  });
  conn.addEventListener("chat", (e) => {
    els.chat.append(chatLine(e.detail));
    els.chat.parentElement.scrollTop = els.chat.parentElement.scrollHeight;
  });
  conn.addEventListener("error", (e) => {
    const msg = e.detail;
    if (msg.code === "bad_token") {
      // our token is no longer good (a release): forget it and watch instead
      store.remember(code, { token: null, seat: null });
      showError(errorText(msg));
      setTimeout(() => connect(null), 200);
    } else if (msg.id === undefined || msg.id === null) {
      showError(errorText(msg));
    }
  });
  conn.open();
}

els.chatForm.addEventListener("submit", async (e) => {
  e.preventDefault();
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text) return;
  if (!conn || state.seat === null) {
    showError(t("chat.spectator_note"));
    return;
  }
  input.value = "";
  try {
    const answer = await conn.request({ type: "chat", text });
    if (answer.type === "error") {
      // never a silent loss: the message comes back into the field with the reason
      if (!input.value) input.value = text;
      showError(errorText(answer));
    }
  } catch {
    if (!input.value) input.value = text;
    showError(t("error.offline"));
  }
});

// The invite link: the server's --public-url, else the address this browser used (the
// server names this machine's address when the browser used loopback: server/invite.py).
function inviteUrl() {
  const base = document.querySelector('meta[name="gamenight-invite"]')?.content;
  return `${base || location.origin}/r/${code}`;
}

function isLoopback(host) {
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127\./.test(host);
}

els.invite.addEventListener("click", async () => {
  const url = inviteUrl();
  try {
    await navigator.clipboard.writeText(url);
    say(t("room.copied"));
    $("#invite-label").textContent = t("room.copied");
  } catch {
    window.prompt(t("room.copy_prompt"), url);
  }
  setTimeout(() => ($("#invite-label").textContent = t("room.invite")), 2500);
});

async function main() {
  try {
    const [games, room] = await Promise.all([api.games(), api.room(code)]);
    state.game = games.find((g) => g.id === room.game) || null;
    state.room = room;
    // only this game's board is fetched (games/index.js), with its messages
    [renderer] = await Promise.all([loadRenderer(room.game), loadGameMessages(room.game), loadCatalogues()]);
    mountRulesDrawer(room.game);
    render();
  } catch (err) {
    replace($("main"), h("h1", {}, t("room.missing")), h("p", {}, h("a", { href: "/" }, t("nav.lobby"))));
    return;
  }
  const mine = store.room(code);
  connect(mine && mine.token ? mine.token : null);
}

main();
