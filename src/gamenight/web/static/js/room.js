// The room page (/r/<code>): claim a seat, invite, spectate, start, play, chat, the end.
import { h, replace, $ } from "./dom.js";
import { t, translatePage, loadGameMessages } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { Connection } from "./net.js";
import * as store from "./store.js";
import { rendererFor } from "./games/index.js";
import { rendererContext } from "./context.js";
import { seatList, seatName } from "./parts/seats.js";
import { connectionStatus } from "./parts/status.js";
import { LogPanel, describe } from "./parts/log.js";
import { advicePanel } from "./parts/hint.js";
import { endPanel } from "./parts/end.js";
import { fairBox } from "./parts/fair.js";
import { newContribution, PLAYERS } from "./fairness.js";

translatePage();
const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const els = {
  title: $("#room-title"),
  status: $("#conn"),
  waiting: $("#waiting"),
  table: $("#table"),
  hint: $("#hint"),
  end: $("#end"),
  seats: $("#seats"),
  side: $("#side"),
  chat: $("#chat-list"),
  chatForm: $("#chat-form"),
  announce: $("#announce"),
  error: $("#error"),
  invite: $("#invite"),
  fair: $("#fair"),
};

const state = {
  room: null,
  claimDraft: null, // the name typed into the claim form, not yet sent
  game: null, // GameOut from /api/games
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
  word: "", // a word of the player's own for the dice, typed before sitting down
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
  return (state.room?.seats || []).map((s) => seatName(s, state.game));
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
    busy: state.busy,
    local: state.local,
    act,
    rerender: render,
    odds: state.odds,
  });
}

async function act(action) {
  if (!conn || state.busy) return;
  state.busy = true;
  state.advice = null;
  render();
  try {
    const answer = await conn.request({ type: "act", action, expected_seq: state.seq });
    if (answer.type === "error") {
      if (answer.code !== "stale") showError(answer.message);
    }
  } catch (err) {
    showError(t("error.offline"));
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
    state.advice = answer.type === "advice" ? { data: answer.advice, seq: answer.seq } : { error: answer.message };
  } catch {
    state.advice = { error: t("error.offline") };
  }
  render();
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
  const open = room.seats.filter((s) => s.kind === "human" && !s.claimed);
  // What the player typed survives a re-render (a room update while they type):
  // the draft lives in the state, and the data-key keeps the focus (replace()).
  const nameInput = h("input", {
    id: "claim-name", type: "text", maxlength: 40, autocomplete: "nickname",
    value: state.claimDraft ?? store.name(), required: true, "data-key": "claim-name",
    oninput: (e) => { state.claimDraft = e.target.value; },
  });
  const claim = async (seat) => {
    const name = nameInput.value.trim();
    if (!name) {
      nameInput.focus();
      showError(t("room.name_needed"));
      return;
    }
    try {
      // this player's part of the dice seed, made here (docs/fairness.md)
      const contribution = newContribution(state.word);
      const claimed = await api.claim(code, seat, name, contribution);
      store.setName(name);
      store.remember(code, { seat: claimed.seat, token: claimed.token, game: room.game, name, contribution });
      connect(claimed.token);
    } catch (err) {
      showError(err.message);
    }
  };
  const url = `${location.origin}/r/${code}`;
  replace(
    els.waiting,
    h("h2", {}, t("room.waiting")),
    h("div", { class: "invite-box" },
      h("p", {}, t("room.invite_help")),
      h("code", { class: "invite-url" }, url),
      h("button", { type: "button", class: "small", "data-key": "copy-invite", onclick: () => els.invite.click() }, t("room.invite"))),
    state.seat === null
      ? h("div", { class: "claim" },
          h("label", { for: "claim-name" }, t("room.your_name")),
          nameInput,
          open.length
            ? h("div", { class: "actions" }, open.map((s) =>
                h("button", { type: "button", class: "primary", "data-key": `claim-${s.seat}`, onclick: () => claim(s.seat) },
                  t("room.claim", { seat: seatName(s, state.game) }))))
            : h("p", {}, t("room.no_open_seat")),
          h("p", { class: "muted" }, t("room.spectating")))
      : h("p", {}, t("room.seated", { name: names()[state.seat], n: state.seat + 1 })),
    isHost
      ? h("div", { class: "host" },
          h("p", {}, t("room.host_note")),
          h("button", { type: "button", class: "primary", id: "start", onclick: async () => {
            try { await api.start(code, mine.hostToken); } catch (err) { showError(err.message); }
          } }, t("room.start")))
      : h("p", { class: "muted" }, t("room.wait_host")),
  );
}

function renderTable() {
  if (!state.view) {
    els.table.hidden = true;
    return;
  }
  els.table.hidden = false;
  replace(els.table, renderer.render(ctx()));
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
  if (!conn || !room || room.entropy !== PLAYERS || room.status !== "waiting" || state.seat === null) return;
  if (room.seats[state.seat]?.contributed) return;
  const remembered = store.room(code) || {};
  const value = remembered.contribution || newContribution(state.word);
  store.remember(code, { contribution: value });
  conn.request({ type: "contribute", value }).catch(() => {});
}

function renderSeats() {
  if (!state.room) return;
  replace(els.seats, h("h2", {}, t("seats.title")), seatList({ seats: state.room.seats, me: state.seat, toAct: state.finished ? [] : state.toAct, gameInfo: state.game }),
    state.room.notes?.length ? h("ul", { class: "notes" }, state.room.notes.map((n) => h("li", {}, n))) : null);
}

function renderEnd() {
  const room = state.room;
  if (!room || !["finished", "closed", "broken"].includes(room.status)) {
    els.end.hidden = true;
    return;
  }
  els.end.hidden = false;
  replace(els.end, endPanel({ room, names: names(), game: state.game, onAgain: playAgain, noted: noted(), mine: myContribution() }));
}

function render() {
  if (!state.room) return;
  // state for tests and styling: the seq shown, the room status, whether we must act
  document.body.dataset.seq = String(state.seq);
  document.body.dataset.status = state.room.status;
  document.body.dataset.myTurn = String(ctx().myTurn && !state.busy);
  document.body.dataset.seat = state.seat === null ? "" : String(state.seat);
  document.title = `${state.game ? state.game.name : state.room.game} — gamenight`;
  els.title.textContent = state.game ? state.game.name : state.room.game;
  renderWaiting();
  renderTable();
  renderHint();
  renderSeats();
  renderFair();
  renderEnd();
}

async function playAgain() {
  const room = state.room;
  const mine = store.room(code) || {};
  const seats = room.seats.map((s) => (s.kind === "bot" ? `bot:${s.bot}` : "human"));
  try {
    const created = await api.create({ game: room.game, seats, options: room.options, public: room.public, room: room.room_options });
    store.remember(created.code, { hostToken: created.host_token, game: room.game });
    if (state.seat !== null && seats[state.seat] === "human") {
      const contribution = newContribution();
      const claimed = await api.claim(created.code, state.seat, mine.name || store.name() || names()[state.seat], contribution);
      store.remember(created.code, { seat: claimed.seat, token: claimed.token, name: mine.name || store.name(), contribution });
    }
    conn && conn.send({ type: "chat", text: `${t("end.rematch_chat")} ${location.origin}/r/${created.code}` });
    setTimeout(() => location.assign(`/r/${created.code}`), 150);
  } catch (err) {
    showError(err.message);
  }
}

function chatLine(msg) {
  // chat text is data: inserted as text; a rematch link to this server becomes a link
  const text = String(msg.text || "");
  const match = text.match(new RegExp(`${location.origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/r/([A-Za-z0-9_-]+)$`));
  return h("li", {},
    h("b", {}, msg.name || t("chat.spectator")), ": ",
    match ? [text.slice(0, match.index), h("a", { href: `/r/${match[1]}` }, `/r/${match[1]}`)] : text);
}

function onSnapshot(msg) {
  state.room = msg.room;
  state.seat = msg.seat;
  state.view = msg.view;
  state.legal = msg.legal || [];
  state.toAct = msg.to_act || [];
  state.seq = msg.seq;
  state.finished = msg.finished;
  state.results = msg.results;
  state.odds = msg.odds || null;
  renderer = rendererFor(msg.room.game);
  if (msg.seat !== null && msg.seat !== undefined) store.remember(code, { seat: msg.seat, game: msg.room.game, status: msg.room.status });
  const c = ctx();
  // a snapshot's events are stamped ({seq, event}); the renderer gets the bare event
  for (const stamped of msg.events || []) log.add(describe(renderer, stamped.event, c));
  if (msg.chat) {
    els.chat.replaceChildren(...msg.chat.map(chatLine));
  }
  render();
  contributeIfMissing();
}

function onEvents(msg) {
  state.view = msg.view;
  state.legal = msg.legal || [];
  state.toAct = msg.to_act || [];
  state.seq = msg.seq;
  state.finished = msg.finished;
  state.results = msg.results;
  const c = ctx();
  const lines = [];
  for (const event of msg.events || []) {
    const line = describe(renderer, event, c);
    log.add(line);
    if (line) lines.push(line);
  }
  if (c.myTurn) lines.push(t("room.your_turn"));
  if (lines.length) say(lines.slice(-3).join(". "));
  render();
}

function connect(token) {
  if (conn) conn.close();
  log.clear();
  conn = new Connection(code, token);
  replace(els.status, connectionStatus(conn));
  conn.addEventListener("snapshot", (e) => onSnapshot(e.detail));
  conn.addEventListener("events", (e) => onEvents(e.detail));
  conn.addEventListener("room", (e) => {
    const before = state.room?.status;
    state.room = e.detail.room;
    store.remember(code, { status: state.room.status });
    if (before !== state.room.status) say(t(`room.status.${state.room.status}`));
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
      showError(msg.message);
      setTimeout(() => connect(null), 200);
    } else if (msg.id === undefined || msg.id === null) {
      showError(msg.message);
    }
  });
  conn.open();
}

els.chatForm.addEventListener("submit", (e) => {
  e.preventDefault();
  const input = $("#chat-input");
  const text = input.value.trim();
  if (!text || !conn) return;
  conn.send({ type: "chat", text });
  input.value = "";
});

els.invite.addEventListener("click", async () => {
  const url = `${location.origin}/r/${code}`;
  try {
    await navigator.clipboard.writeText(url);
    say(t("room.copied"));
    els.invite.textContent = t("room.copied");
  } catch {
    window.prompt(t("room.copy_prompt"), url);
  }
  setTimeout(() => (els.invite.textContent = t("room.invite")), 2500);
});

async function main() {
  try {
    const [games, room] = await Promise.all([api.games(), api.room(code)]);
    state.game = games.find((g) => g.id === room.game) || null;
    state.room = room;
    renderer = rendererFor(room.game);
    await loadGameMessages(room.game);
    render();
  } catch (err) {
    replace($("main"), h("h1", {}, t("room.missing")), h("p", {}, h("a", { href: "/" }, t("nav.lobby"))));
    return;
  }
  const mine = store.room(code);
  connect(mine && mine.token ? mine.token : null);
}

main();
