// The lobby (/): pick a game, see its rules summary, set options and seats, create a room;
// see first the turn-based rooms waiting for your move ("your turn": for an account from
// GET /api/account/turns, for a guest from the seats this browser holds, POST /api/turns);
// reopen your own unfinished rooms, see your finished games (result, date, replay, play
// again with the same people); join open public rooms.
//
// Every field's error is shown next to the field (aria-invalid, aria-describedby) and the
// field gets the focus; the checks come from GET /api/games (an int option's minimum and
// maximum, a choice option's seat counts), so the lobby has no per-game code.
import { h, replace, $, isolate } from "./dom.js";
import { limitText } from "./parts/text-field.js";
import { defaultText, entryText } from "./parts/catalogue.js";
import { t, tOr, translatePage, loadGameMessages, formatDate, errorText, gameName, language, ordinal } from "./i18n.js";
import { api } from "./api.js";
import * as store from "./store.js";
import { rematch } from "./rematch.js";
import { newContribution } from "./fairness.js";
import { resume, resumable } from "./resume.js";

translatePage();
let games = [];
const catalogues = new Map(); // a catalogue option's url -> its entries (GET /api/games/{id}/catalogues/{option})
let chosen = null;
let me = null; // the signed-in account (GET /api/account), or null: a guest

// Room option presets (seconds; null: off). The server takes any whole number of seconds
// from 1 to a week (RoomOptions in docs/protocol.md); these are the ones a table needs.
const TURN_CLOCKS = [null, 30, 60, 120, 300];
const TAKEOVERS = [null, 60, 120, 300, 900];
// A turn-based room (issue 44): seconds per move, and the time bank a seat may run over
// its moves' times by in all (null: none).
const HOUR = 3600;
const DAY = 24 * HOUR;
const MOVE_TIMES = [12 * HOUR, 24 * HOUR, 72 * HOUR];
const BANKS = [null, DAY, 3 * DAY];

function showError(text) {
  const el = $("#error");
  el.textContent = text || "";
  el.hidden = !text;
}

// ----- errors next to their field ----------------------------------------------------------
/** Show `text` under the field of control `el` (an input, a select or a fieldset); mark it
 * invalid and describe it by the message. */
function fieldError(el, text) {
  const box = el.closest(".field, fieldset") || el.parentElement;
  const id = `${el.id || el.dataset.name || "field"}-error`;
  let msg = box.querySelector(`#${CSS.escape(id)}`);
  if (!msg) {
    msg = h("p", { class: "field-error", id });
    const help = box.querySelector(".help");
    if (help && help.parentElement === box) help.before(msg);
    else box.append(msg);
  }
  msg.textContent = text;
  if (!el.matches("fieldset")) el.setAttribute("aria-invalid", "true");
  const described = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && x !== id);
  el.setAttribute("aria-describedby", [id, ...described].join(" "));
  box.classList.add("invalid");
}

function clearFieldError(el) {
  const box = el.closest(".field, fieldset") || el.parentElement;
  const id = `${el.id || el.dataset.name || "field"}-error`;
  const msg = box && box.querySelector(`#${CSS.escape(id)}`);
  if (msg) msg.remove();
  el.removeAttribute("aria-invalid");
  const rest = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && x !== id);
  if (rest.length) el.setAttribute("aria-describedby", rest.join(" "));
  else el.removeAttribute("aria-describedby");
  if (box) box.classList.remove("invalid");
}

function clearErrors(form) {
  for (const el of form.querySelectorAll("[aria-invalid], fieldset.invalid")) clearFieldError(el);
  const general = $("#create-error");
  if (general) { general.textContent = ""; general.hidden = true; }
}

function focusField(el) {
  const target = el.matches("fieldset") ? el.querySelector("input, select, button") : el;
  if (target) target.focus();
  (target || el).scrollIntoView({ block: "center" });
}

// ----- options -----------------------------------------------------------------------------
function defaultBot(game) {
  return game.bots[Math.min(1, game.bots.length - 1)].name;
}

/** An option's help: the game's message `opt.<game>.<option>.help`, else the server's
 * text without ruling ids. */
function helpText(game, opt) {
  return tOr(`opt.${game.id}.${opt.name}.help`, String(opt.help || "").replace(/\s*\([A-Z]\d+\)\s*/g, " ").trim());
}

function helpEl(id, text) {
  return h("p", { class: "muted help", id: `${id}-help` }, text);
}

/** A select of `values`; with a single value it is shown as text (the select stays,
 * hidden, so the form still reads it). */
function selectField({ id, name, label, values, selected, text, help, onchange }) {
  const select = h("select", { id, name, "aria-describedby": help ? `${id}-help` : undefined, onchange },
    values.map((v) => h("option", { value: v, selected: v === selected }, text(v))));
  const single = values.length === 1;
  select.hidden = single;
  return h("div", { class: `field${single ? " single" : ""}` },
    h(single ? "span" : "label", single ? { class: "label", id: `${id}-label` } : { for: id }, label),
    select,
    single ? h("p", { class: "single-value", id: `${id}-value` }, text(values[0])) : null,
    help ? helpEl(id, help) : null);
}

/** A catalogue option's values, the page's language first (The Decades' decks: a
 * Polish page offers, and preselects, the shipped deck in Polish): the entries in that
 * language, with the game's default before them when it is in that language too (or in
 * none), else after them; then every other entry, in the server's order. */
function catalogueOrder(cat, entries) {
  const lang = document.documentElement.lang || "en";
  const fallback = cat.defaults[0] ?? "";
  const mine = entries.filter((e) => e.language === lang).map((e) => e.id);
  const rest = entries.filter((e) => e.language !== lang).map((e) => e.id);
  const defaultFirst = !mine.length || !cat.default_language || cat.default_language === lang;
  return defaultFirst ? [fallback, ...mine, ...rest] : [...mine, fallback, ...rest];
}

function optionField(game, opt) {
  const id = `opt-${opt.name}`;
  const label = tOr(`opt.${game.id}.${opt.name}`, opt.name);
  const help = helpText(game, opt);
  if (opt.kind === "per-seat") {
    // one of the choices per seat (docs/protocol.md), as many as the default names;
    // each select is labelled by its seat, so no game is named here
    const picked = String(opt.default ?? "").split(",");
    return h("fieldset", { class: "field per-seat", "data-name": opt.name, id, "aria-describedby": `${id}-help` },
      h("legend", {}, label),
      picked.map((value, i) => h("label", { class: "per-seat-choice" },
        t(`lobby.seat_n.${noun(game)}`, { n: i + 1 }), " ",
        h("select", { id: `${id}-${i}`, "data-seat": i },
          opt.choices.map((c) => h("option", { value: c, selected: c === value },
            tOr(`opt.${game.id}.${opt.name}.${c}`, c)))))),
      helpEl(id, help));
  }
  if (opt.catalogue) {
    // a catalogue option (docs/protocol.md): the game's default, then the catalogue's
    // entries by id, as the server lists them; names are text only
    const cat = opt.catalogue;
    // each entry with its language (an English deck on a Polish page says so)
    const first = defaultText(game, opt);
    const entries = catalogues.get(cat.url) || [];
    const names = new Map(entries.map((e) => [e.id, entryText(opt, e)]));
    const values = catalogueOrder(cat, entries);
    return selectField({ id, name: opt.name, label, help, values, selected: values[0],
      text: (v) => names.get(v) ?? first });
  }
  if (opt.kind === "choice") {
    return selectField({ id, name: opt.name, label, values: opt.choices, selected: opt.default, help,
      text: (c) => tOr(`opt.${game.id}.${opt.name}.${c}`, c) });
  }
  if (opt.kind === "multi") {
    const defaults = new Set(Array.isArray(opt.default) ? opt.default : String(opt.default).split(","));
    const all = (on) => (e) => {
      const set = e.target.closest("fieldset");
      set.querySelectorAll("input").forEach((i) => (i.checked = on));
      clearFieldError(set);
    };
    return h("fieldset", { class: "field multi", "data-name": opt.name, id, "aria-describedby": `${id}-help` },
      h("legend", {}, label),
      h("div", { class: "checks" }, opt.choices.map((c) => h("label", { class: "check" },
        h("input", { type: "checkbox", value: c, checked: defaults.has(c) }), tOr(`opt.${game.id}.${opt.name}.${c}`, c)))),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "small", onclick: all(true) }, t("lobby.all")),
        h("button", { type: "button", class: "small", onclick: all(false) }, t("lobby.none"))),
      helpEl(id, help));
  }
  if (opt.kind === "int") {
    const range = opt.minimum !== null && opt.maximum !== null ? t("lobby.range", { min: opt.minimum, max: opt.maximum }) : "";
    return h("div", { class: "field" }, h("label", { for: id }, label),
      h("input", { id, name: opt.name, type: "number", inputmode: "numeric", step: 1, value: opt.default,
        min: opt.minimum ?? undefined, max: opt.maximum ?? undefined, "aria-describedby": `${id}-help` }),
      helpEl(id, [help, range].filter(Boolean).join(" ")));
  }
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, name: opt.name, type: "text", value: opt.default ?? "", "aria-describedby": `${id}-help` }), helpEl(id, help));
}

/** The options as POST /api/rooms wants them, and the first problem of each field
 * ([element, message]) found on the way. */
function readOptions(game, form) {
  const out = {};
  const problems = [];
  for (const opt of game.options) {
    if (opt.kind === "multi") {
      const set = form.querySelector(`fieldset[data-name="${opt.name}"]`);
      const picked = [...set.querySelectorAll("input:checked")].map((i) => i.value);
      if (!picked.length) problems.push([set, t("lobby.err.pick_one")]);
      out[opt.name] = picked.join(",");
      continue;
    }
    if (opt.kind === "per-seat") {
      const set = form.querySelector(`fieldset[data-name="${opt.name}"]`);
      out[opt.name] = [...set.querySelectorAll("select")].map((s) => s.value).join(",");
      continue;
    }
    const el = form.querySelector(`[name="${opt.name}"]`);
    if (!el) continue;
    if (opt.kind === "int") {
      const text = el.value.trim();
      const n = Number(text);
      const lo = opt.minimum ?? -Infinity;
      const hi = opt.maximum ?? Infinity;
      if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(n) || n < lo || n > hi) {
        problems.push([el, Number.isFinite(lo) && Number.isFinite(hi)
          ? t("lobby.err.range", { min: lo, max: hi })
          : t("lobby.err.whole")]);
      }
      out[opt.name] = n;
    } else {
      out[opt.name] = el.value;
    }
  }
  return [out, problems];
}

// ----- seats -------------------------------------------------------------------------------
function seatRow(game, i, value) {
  const id = `seat-${i}`;
  const summary = h("p", { class: "muted help", id: `${id}-help` });
  const select = h("select", { id, "aria-describedby": `${id}-help`, onchange: () => describe() },
    h("option", { value: "human", selected: value === "human" }, i === 0 ? t("lobby.seat_me") : t("lobby.seat_human")),
    game.bots.map((b) => h("option", { value: `bot:${b.name}`, selected: value === `bot:${b.name}` }, t("lobby.seat_bot", { bot: b.name }))));
  function describe() {
    const bot = game.bots.find((b) => `bot:${b.name}` === select.value);
    summary.textContent = bot ? bot.summary : select.value === "human" && i > 0 ? t("lobby.human_help") : "";
  }
  describe();
  return h("div", { class: "field seat-field" }, h("label", { for: id }, t(`lobby.seat_n.${noun(game)}`, { n: i + 1 })), select, summary);
}

// The seat counts the chosen options allow: the game's range, narrowed by each choice
// option's `seats` (choice -> [lowest, highest]) from /api/games.
function seatRange(game, form) {
  let [lo, hi] = [game.min_players, game.max_players];
  for (const opt of game.options) {
    const el = opt.seats && form && form.querySelector(`[name="${opt.name}"]`);
    const narrowed = el ? opt.seats[el.value] : opt.seats && opt.seats[opt.default];
    if (narrowed) [lo, hi] = [Math.max(lo, narrowed[0]), Math.min(hi, narrowed[1])];
  }
  return [lo, hi];
}

/** What a game's seats are called: "player" or "team" (the message families
 * lobby.<what>.player / lobby.<what>.team; a noun is never glued to a number, since
 * Polish inflects it by the count). */
function noun(game) {
  return game.seat_noun === "team" ? "team" : "player";
}

/** "2 teams", "1 player", "2 to 6 players". */
function countText(game, lo, hi) {
  return lo === hi
    ? t(`lobby.players_exactly.${noun(game)}`, { count: lo })
    : t(`lobby.players.${noun(game)}`, { min: lo, max: hi });
}

// ----- room options ------------------------------------------------------------------------
function duration(seconds) {
  return seconds % 60 === 0 ? t("lobby.minutes", { count: seconds / 60 }) : t("lobby.seconds", { count: seconds });
}

function roomSelect(id, label, values, text, help, selected = null) {
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("select", { id, "aria-describedby": `${id}-help` },
      values.map((v) => h("option", { value: v === null ? "" : String(v), selected: v === selected }, text(v)))),
    helpEl(id, help));
}

/** A turn-based room's speed or time bank in words: "24 hours", "3 days" (a speed of a
 * day or less in hours, as players name it; `days`: whole days in days). */
function longSpan(seconds, days = seconds > DAY) {
  return days && seconds % DAY === 0 ? t("lobby.days", { count: seconds / DAY }) : t("lobby.hours", { count: Math.round(seconds / HOUR) });
}

/** A span on the "your turn" list, short: "5 min", "3 h", "1 d 12 h", "4 d". */
function span(seconds) {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return t("lobby.span_min", { n: minutes });
  const hours = Math.round(seconds / HOUR);
  if (hours < 24) return t("lobby.span_h", { n: hours });
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest === 0 || days >= 3 ? t("lobby.span_d", { n: days }) : t("lobby.span_dh", { days, hours: rest });
}

function seconds(select) {
  return select.value === "" ? null : Number(select.value);
}

// ----- the form ----------------------------------------------------------------------------
function renderDetail(game) {
  const seatsBox = h("div", { class: "seats-box" });
  const countBox = h("div", { class: "count-box" });
  const players = h("p", { class: "muted players-line" });
  let count = null;
  const drawSeats = () => {
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const n = Number(count.value);
    replace(seatsBox, Array.from({ length: n }, (_, i) => seatRow(game, i, old[i] || (i === 0 ? "human" : `bot:${defaultBot(game)}`))));
  };
  // only the counts the chosen options allow are offered (redrawn when an option changes);
  // a single possible count is shown as text
  const drawCounts = () => {
    const [lo, hi] = seatRange(game, form);
    const was = count ? Number(count.value) : Math.max(lo, Math.min(2, hi));
    const keep = Math.max(lo, Math.min(was, hi));
    const values = Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => lo + i);
    const field = selectField({ id: "seat-count", label: t(`lobby.count.${noun(game)}`),
      values, selected: keep, text: (n) => (values.length === 1 ? countText(game, n, n) : String(n)), onchange: drawSeats });
    replace(countBox, field);
    count = field.querySelector("select");
    count.value = String(keep);
    players.textContent = countText(game, lo, hi);
    drawSeats();
  };
  // 40 code points, as the server counts (parts/text-field.js), not maxlength's UTF-16 units
  const name = limitText(h("input", { id: "my-name", type: "text", value: store.name() || (me ? me.name : ""), autocomplete: "nickname" }), 40);
  const clock = roomSelect("turn-clock", t("lobby.clock"), TURN_CLOCKS,
    (v) => (v === null ? t("lobby.clock_off") : t("lobby.clock_on", { time: duration(v) })), t("lobby.clock_help"));
  const takeover = roomSelect("takeover", t("lobby.takeover"), TAKEOVERS,
    (v) => (v === null ? t("lobby.takeover_off") : t("lobby.takeover_on", { time: duration(v) })), t("lobby.takeover_help"));
  // live, or turn-based (a game over days: a time per move and a time bank instead of
  // the live room's turn clock and takeover)
  const paceInput = (value, label) => h("label", { class: "check" },
    h("input", { type: "radio", name: "room-pace", id: `pace-${value}`, value, checked: value === "live",
      onchange: () => showPace() }), label);
  const paceField = h("fieldset", { class: "field pace-choice", id: "pace-choice", "aria-describedby": "pace-choice-help" },
    h("legend", {}, t("lobby.pace_choice")),
    paceInput("live", t("lobby.pace_live")),
    paceInput("turn-based", t("lobby.pace_turns")),
    helpEl("pace-choice", t("lobby.pace_choice_help")));
  const moveTime = roomSelect("move-time", t("lobby.move_time"), MOVE_TIMES,
    (v) => t("lobby.per_move", { time: longSpan(v) }), t("lobby.move_time_help"), DAY);
  const bank = roomSelect("time-bank", t("lobby.bank"), BANKS,
    (v) => (v === null ? t("lobby.bank_none") : longSpan(v, true)), t("lobby.bank_help"));
  const turnBased = () => paceField.querySelector("#pace-turn-based").checked;
  function showPace() {
    const slow = turnBased();
    clock.hidden = takeover.hidden = slow;
    moveTime.hidden = bank.hidden = !slow;
  }
  showPace();
  const createError = h("p", { class: "error form-error", id: "create-error", role: "alert", hidden: true });
  const form = h("form", { class: "create", id: "create-form", novalidate: true },
    game.options.length ? h("fieldset", { class: "group" }, h("legend", {}, t("lobby.options")), game.options.map((o) => optionField(game, o))) : null,
    h("fieldset", { class: "group" }, h("legend", {}, t("lobby.seats")),
      countBox,
      seatsBox,
      h("div", { class: "field" }, h("label", { for: "my-name" }, t("lobby.your_name")), name)),
    h("fieldset", { class: "group" }, h("legend", {}, t("lobby.room")),
      paceField,
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "public" }), t("lobby.public")),
      game.hints ? h("label", { class: "check" }, h("input", { type: "checkbox", id: "hints", checked: true }), t("lobby.hints")) : null,
      game.odds ? h("label", { class: "check" }, h("input", { type: "checkbox", id: "odds" }), t("lobby.odds")) : null,
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "pace", checked: true }), t("lobby.pace")),
      h("div", { class: "field rated-field" },
        h("label", { class: "check" }, h("input", { type: "checkbox", id: "rated", disabled: !me, "aria-describedby": "rated-help" }), t("lobby.rated")),
        helpEl("rated", me ? t("lobby.rated_help") : t("lobby.rated_guest"))),
      moveTime, bank, clock, takeover),
    h("div", { class: "actions create-actions" }, h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create"))),
    createError);
  form.addEventListener("change", (e) => {
    if (e.target.matches("[aria-invalid]")) clearFieldError(e.target);
    const set = e.target.closest("fieldset.invalid");
    if (set && set.dataset.name) clearFieldError(set);
    if (!countBox.contains(e.target) && !seatsBox.contains(e.target)) drawCounts();
  });
  form.addEventListener("input", (e) => { if (e.target.matches("[aria-invalid]")) clearFieldError(e.target); });
  drawCounts();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    clearErrors(form);
    const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const me = name.value.trim();
    const [options, problems] = readOptions(game, form);
    if (seats.includes("human") && !me) problems.push([name, t("lobby.err.name")]);
    if (problems.length) {
      for (const [el, text] of problems) fieldError(el, text);
      focusField(problems[0][0]);
      return;
    }
    const body = {
      game: game.id,
      seats,
      options,
      public: $("#public").checked,
      room: {
        hints: !!(game.hints && $("#hints").checked),
        odds: !!(game.odds && $("#odds").checked),
        bot_pace: $("#pace").checked ? 0.8 : 0,
        rated: !!(me && $("#rated").checked),
        ...(turnBased()
          ? { pace: "turn-based", move_time: seconds(moveTime.querySelector("select")),
              time_bank: seconds(bank.querySelector("select")) }
          : { turn_clock: seconds(clock.querySelector("select")),
              takeover_after: seconds(takeover.querySelector("select")) }),
      },
    };
    const button = $("#create");
    button.disabled = true;
    try {
      const created = await api.create(body);
      store.remember(created.code, { hostToken: created.host_token, game: game.id });
      const mySeat = seats.indexOf("human");
      if (mySeat >= 0) {
        store.setName(me);
        const contribution = newContribution(); // the host's part of the dice (docs/fairness.md)
        const claimed = await api.claim(created.code, mySeat, me, contribution);
        store.remember(created.code, { seat: claimed.seat, token: claimed.token, name: me, contribution });
        store.noteCommitment(created.code, created.commitment, "waiting"); // first sight
      }
      location.assign(`/r/${created.code}`);
    } catch (err) {
      button.disabled = false;
      serverError(form, game, err, count);
    }
  });
  replace($("#game-detail"),
    h("div", { class: "game-info" },
      h("h3", {}, game.name),
      h("p", {}, game.summary),
      players,
      h("p", {}, h("a", { href: `/rules?game=${encodeURIComponent(game.id)}&lang=${language()}` }, t("lobby.rules", { name: game.name })))),
    form);
}

/** A refusal of POST /api/rooms, shown at the field it is about (the server's codes,
 * docs/protocol.md), else under the create button. */
function serverError(form, game, err, count) {
  let el = null;
  if (err.code === "bad_name") el = $("#my-name");
  else if (err.code === "bad_seats") el = count.hidden ? $("#seat-0") : count;
  else if (err.code === "bad_options" || err.code === "bad_option_value") {
    // the first quoted name of one of the game's options: the message is in the page's
    // language (the server words it so), its quotes may be the language's own
    const quoted = [...String(err.message).matchAll(/['‘’‚„“”«»]([\w-]+)['‘’„“”«»]/g)].map((m) => m[1]);
    const opt = game.options.find((o) => o.name === quoted.find((q) => game.options.some((x) => x.name === q)));
    el = opt ? form.querySelector(`#opt-${CSS.escape(opt.name)}`) : null;
    if (el && el.hidden) el = null;
  }
  if (el) {
    fieldError(el, err.message);
    focusField(el);
    return;
  }
  const general = $("#create-error");
  general.textContent = t("lobby.err.create", { message: errorText(err) });
  general.hidden = false;
  $("#create").focus();
}

function choose(g) {
  chosen = g;
  renderGames();
  renderDetail(g);
}

// The game tiles are a radio group: one tab stop (the chosen game), arrow keys move and choose.
function renderGames() {
  replace($("#games"), games.map((g, i) => h("button", {
    type: "button", role: "radio", class: "game-choice", "aria-checked": chosen === g ? "true" : "false", "data-game": g.id, "data-key": `game-${g.id}`,
    tabindex: chosen === g ? "0" : "-1",
    onclick: () => choose(g),
    onkeydown: (e) => {
      const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
      if (!step) return;
      e.preventDefault();
      choose(games[(i + step + games.length) % games.length]);
      $(`#games [data-game="${CSS.escape(chosen.id)}"]`).focus();
    },
  }, h("span", { class: "game-name" }, g.name), h("span", { class: "game-meta" }, countText(g, g.min_players, g.max_players)))));
}

// ----- your rooms and games ----------------------------------------------------------------

/** One line about a finished game's result, for this browser's seat (or the winners). */
function resultText(room, info) {
  const results = room.results;
  if (room.status !== "finished" || !results || !results.ranks) return t(`room.status.${room.status}`);
  const names = room.seats.map((s, i) => s.name || (s.kind === "bot" ? t("seat.bot", { bot: s.bot }) : `#${i + 1}`));
  const seat = info.seat;
  if (seat !== null && seat !== undefined && results.ranks[seat] !== undefined) {
    const score = results.scores ? results.scores[seat] : undefined;
    const key = results.winners && results.winners.includes(seat) ? "lobby.result_won" : "lobby.result_rank";
    return t(key, { rank: ordinal(results.ranks[seat]), of: results.ranks.length, score: score ?? "" });
  }
  const winners = (results.winners || []).map((s) => isolate(names[s])).join(", ");
  return t("lobby.result_winners", { names: winners });
}

async function renderMine() {
  const mine = Object.entries(store.rooms()).sort((a, b) => (b[1].touched || 0) - (a[1].touched || 0)).slice(0, 24);
  const open = [];
  const done = [];
  await Promise.all(mine.map(async ([code, info]) => {
    let room = null;
    try {
      room = await api.room(code);
    } catch (err) {
      if (err.status === 404) store.forget(code); // gone from the server; anything else: try later
      return;
    }
    if (room.status !== info.status) store.note(code, { status: room.status });
    (room.status === "finished" || room.status === "closed" || room.status === "broken" ? done : open).push([code, info, room]);
  }));
  const order = (list) => list.sort((a, b) => (b[1].touched || 0) - (a[1].touched || 0));
  const gameName = (room) => (games.find((g) => g.id === room.game) || { name: room.game }).name;
  // the signed-in account's seats this browser holds no token for (claimed on another
  // device): taken up here with a fresh token
  const elsewhere = (me ? me.rooms : []).filter((r) => resumable(r) && !(store.room(r.room) || {}).token);
  const rows = [
    ...order(open).map(([code, info, room]) => h("li", {},
      h("a", { href: `/r/${encodeURIComponent(code)}` }, gameName(room)),
      h("span", { class: "room-facts" }, " — ", t(`room.status.${room.status}`),
        info.seat !== null && info.seat !== undefined ? ` · ${t("lobby.your_seat", { n: info.seat + 1 })}` : "",
        info.hostToken ? ` · ${t("lobby.host")}` : ""))),
    ...elsewhere.map((r) => {
      const problem = h("p", { class: "field-error", id: `resume-${r.room}-error`, role: "alert", hidden: true });
      const button = h("button", { type: "button", class: "small resume", "data-key": `resume-${r.room}`,
        onclick: async () => {
          button.disabled = true;
          try {
            await resume(r.room, r.seat, r.game);
          } catch (err) {
            button.disabled = false;
            problem.textContent = errorText(err);
            problem.hidden = false;
          }
        } }, t("lobby.resume"));
      return h("li", { "data-code": r.room },
        h("span", {}, gameName(r)),
        h("span", { class: "room-facts" }, " — ", t(`room.status.${r.status}`), ` · ${t("lobby.your_seat", { n: r.seat + 1 })}`, " "),
        button, problem);
    }),
  ];
  replace($("#mine"), rows.length
    ? h("ul", { class: "room-list" }, rows)
    : h("p", { class: "muted" }, t("lobby.mine_none")));
  replace($("#done"), done.length
    ? h("ul", { class: "game-list" }, order(done).slice(0, 12).map(([code, info, room]) => {
        const when = info.created ? formatDate(new Date(info.created)) : "";
        const problem = h("p", { class: "field-error", id: `again-${code}-error`, role: "alert", hidden: true });
        const again = h("button", { type: "button", class: "small again", "data-key": `again-${code}`,
          onclick: async () => {
            again.disabled = true;
            problem.hidden = true;
            try {
              const next = await rematch(room, { seat: info.seat ?? null, name: info.name || store.name() });
              location.assign(`/r/${next}`);
            } catch (err) {
              again.disabled = false;
              problem.textContent = t("lobby.err.create", { message: errorText(err) }); // at its button
              problem.hidden = false;
              again.setAttribute("aria-describedby", problem.id);
              again.focus();
            }
          } }, t("lobby.again"));
        return h("li", { class: "game-row", "data-code": code },
          h("div", { class: "game-row-head" }, h("b", {}, gameName(room)), when ? h("span", { class: "muted" }, " · ", h("time", { datetime: new Date(info.created).toISOString() }, when)) : null),
          h("p", { class: "game-result" }, resultText(room, info)),
          h("div", { class: "actions" },
            room.status === "finished" ? h("a", { class: "button small", href: `/replay?room=${encodeURIComponent(code)}` }, t("lobby.replay")) : null,
            room.status === "finished" ? again : null),
          problem);
      }))
    : h("p", { class: "muted" }, t("lobby.done_none")));
}

async function renderOpen() {
  let rooms = [];
  try {
    rooms = await api.rooms();
  } catch {
    rooms = [];
  }
  const row = (r) => {
    const game = games.find((g) => g.id === r.game);
    const free = r.seats.filter((s) => s.kind === "human" && !s.claimed).length;
    return h("li", { "data-code": r.code }, h("a", { href: r.invite }, game ? game.name : r.game),
      h("span", { class: "room-facts" }, " — ", t(`room.status.${r.status}`),
        r.pace === "turn-based" && r.move_time ? ` · ${t("lobby.per_move", { time: longSpan(r.move_time) })}` : "",
        " · ", t("lobby.free_seats", { count: free, n: free }), " · ", r.seats.map((s) => s.name || (s.kind === "bot" ? s.bot : "…")).join(", ")));
  };
  // turn-based tables apart from live ones: a game over days is another kind of promise
  const slow = rooms.filter((r) => r.pace === "turn-based");
  const live = rooms.filter((r) => r.pace !== "turn-based");
  const part = (id, title, list) => list.length
    ? h("div", { id }, h("h3", { class: "open-kind" }, title), h("ul", { class: "room-list" }, list.map(row)))
    : null;
  replace($("#open"), rooms.length
    ? h("div", {}, part("open-live", t("lobby.open_live"), live), part("open-turns", t("lobby.open_turns"), slow))
    : h("p", { class: "muted" }, t("lobby.open_none")));
}

// ----- your turn ---------------------------------------------------------------------------
/** The turn-based rooms waiting for this player's move: the account's (every device) and
 * those of the seats this browser holds, once each, the nearest deadline first (as the
 * server orders each list; docs/protocol.md "Your turn"). */
async function renderTurns() {
  const held = Object.entries(store.rooms())
    .filter(([, r]) => r.token && Number.isInteger(r.seat))
    .slice(0, 200)
    .map(([code, r]) => ({ code, seat: r.seat, token: r.token }));
  const lists = await Promise.all([
    me ? api.accountTurns().catch(() => null) : null,
    held.length ? api.turns(held).catch(() => null) : null,
  ]);
  const seen = new Set();
  const turns = [];
  for (const list of lists) {
    for (const turn of list ? list.turns : []) {
      const key = `${turn.room} ${turn.seat}`;
      if (!seen.has(key)) { seen.add(key); turns.push(turn); }
    }
  }
  const due = (x) => (x.deadline === null ? Infinity : x.deadline);
  turns.sort((a, b) => due(a) - due(b) || a.since - b.since);
  const gameName = (id) => (games.find((g) => g.id === id) || { name: id }).name;
  replace($("#turns"), turns.length ? h("ul", { class: "turn-list" }, turns.map((turn) => {
    const mine = store.room(turn.room);
    const here = mine && mine.token && mine.seat === turn.seat;
    const problem = h("p", { class: "field-error", id: `turn-${turn.room}-error`, role: "alert", hidden: true });
    const open = here
      ? h("a", { href: `/r/${encodeURIComponent(turn.room)}`, "data-key": `turn-${turn.room}` }, gameName(turn.game))
      : h("button", { type: "button", class: "small resume", "data-key": `turn-${turn.room}`,
          onclick: async (e) => {
            e.currentTarget.disabled = true;
            try {
              await resume(turn.room, turn.seat, turn.game);
            } catch (err) {
              open.disabled = false;
              problem.textContent = errorText(err);
              problem.hidden = false;
            }
          } }, t("lobby.turn_resume", { game: gameName(turn.game) }));
    const names = turn.others.map((s) => isolate(s.name || (s.kind === "bot" ? t("seat.bot", { bot: s.bot }) : "…")));
    const clock = turn.late ? t("lobby.turn_late")
      : turn.left === null ? t("lobby.turn_no_clock")
      : t("lobby.turn_left", { time: span(turn.left) });
    return h("li", { class: `turn-row${turn.late ? " late" : ""}`, "data-code": turn.room },
      open,
      names.length ? h("p", { class: "turn-against" }, t("lobby.turn_against", { names: names.join(", ") })) : null,
      h("p", { class: "muted" }, t("lobby.turn_waiting", { time: span(turn.waiting) }), " · ",
        h("span", { class: "turn-left" }, clock)),
      problem);
  })) : null);
  $("#turns-panel").hidden = !turns.length;
}

/** The header's account link: "Sign in", or the signed-in name (text, never markup). */
function showAccount() {
  const link = $("#account-link");
  if (!me) {
    link.textContent = t("nav.signin");
    link.href = "/account";
    return;
  }
  replace(link, h("span", { class: "visually-hidden" }, t("nav.signed_in_as"), " "), h("bdi", {}, me.name));
  link.href = "/account";
}

async function main() {
  try {
    games = await api.games();
    const urls = new Set(games.flatMap((g) => g.options.filter((o) => o.catalogue).map((o) => o.catalogue.url)));
    await Promise.all([...urls].map(async (url) => catalogues.set(url, await api.catalogue(url).catch(() => []))));
    await Promise.all(games.map((g) => loadGameMessages(g.id))); // their option names
    for (const g of games) { // the names and summaries in the page's language (the vocabulary)
      g.name = gameName(g.id, g.name);
      g.summary = tOr(`game.${g.id}.summary`, g.summary);
    }
  } catch (err) {
    showError(errorText(err));
    return;
  }
  me = await api.me().catch(() => null);
  showAccount();
  const wanted = new URLSearchParams(location.search).get("game");
  chosen = games.find((g) => g.id === wanted) || games[0];
  renderGames();
  renderDetail(chosen);
  await renderTurns();
  document.body.dataset.turns = "ready"; // for tests: the "your turn" list is drawn
  setInterval(renderTurns, 60000);
  await renderMine();
  document.body.dataset.mine = "ready"; // for tests: your rooms and games are drawn
  renderOpen();
  setInterval(renderOpen, 10000);
}

main();
