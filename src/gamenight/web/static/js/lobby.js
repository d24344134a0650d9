// The lobby (/): pick a game, see its rules summary, set options and seats, create a room;
// reopen your own unfinished rooms; join open public rooms.
import { h, replace, $ } from "./dom.js";
import { t, tOr, translatePage, loadGameMessages } from "./i18n.js";
import { api } from "./api.js";
import * as store from "./store.js";
import { newContribution } from "./fairness.js";

translatePage();
let games = [];
const catalogues = new Map(); // a catalogue option's url -> its entries (GET /api/games/{id}/catalogues/{option})
let chosen = null;

function showError(text) {
  const el = $("#error");
  el.textContent = text || "";
  el.hidden = !text;
}

function defaultBot(game) {
  return game.bots[Math.min(1, game.bots.length - 1)].name;
}

function optionField(game, opt) {
  const id = `opt-${opt.name}`;
  const label = tOr(`opt.${game.id}.${opt.name}`, opt.name);
  const help = h("p", { class: "muted help", id: `${id}-help` }, opt.help.replace(/\s*\([A-Z]\d+\)\s*/g, " ").trim());
  if (game.id === "decades" && opt.name === "sides") {
    const combos = ["A,B", "B,A", "A,A", "B,B"];
    return h("div", { class: "field" }, h("label", { for: id }, label),
      h("select", { id, name: opt.name, "aria-describedby": `${id}-help` },
        combos.map((c) => h("option", { value: c, selected: c === opt.default }, t("opt.sides_value", { a: c[0], b: c[2] })))), help);
  }
  if (opt.catalogue) {
    // a catalogue option (docs/protocol.md): the game's default, then the catalogue's
    // entries by id, as the server lists them; names are text only
    const cat = opt.catalogue;
    const first = tOr(`opt.${game.id}.${opt.name}.default`, cat.default_label.charAt(0).toUpperCase() + cat.default_label.slice(1));
    return h("div", { class: "field" }, h("label", { for: id }, label),
      h("select", { id, name: opt.name, "aria-describedby": `${id}-help` },
        h("option", { value: cat.defaults[0] ?? "", selected: true }, first),
        (catalogues.get(cat.url) || []).map((e) => h("option", { value: e.id },
          e.detail ? t("opt.catalogue_entry", { name: e.name, detail: e.detail }) : e.name))),
      h("p", { class: "muted help", id: `${id}-help` }, tOr(`opt.${game.id}.${opt.name}.help`, opt.help)));
  }
  if (opt.kind === "choice") {
    return h("div", { class: "field" }, h("label", { for: id }, label),
      h("select", { id, name: opt.name, "aria-describedby": `${id}-help` },
        opt.choices.map((c) => h("option", { value: c, selected: c === opt.default }, tOr(`opt.value.${c}`, c)))), help);
  }
  if (opt.kind === "multi") {
    const defaults = new Set(Array.isArray(opt.default) ? opt.default : String(opt.default).split(","));
    return h("fieldset", { class: "field multi", "data-name": opt.name },
      h("legend", {}, label),
      h("div", { class: "checks" }, opt.choices.map((c) => h("label", { class: "check" },
        h("input", { type: "checkbox", value: c, checked: defaults.has(c) }), tOr(`opt.${game.id}.${opt.name}.${c}`, c)))),
      h("div", { class: "actions" },
        h("button", { type: "button", class: "small", onclick: (e) => e.target.closest("fieldset").querySelectorAll("input").forEach((i) => (i.checked = true)) }, t("lobby.all")),
        h("button", { type: "button", class: "small", onclick: (e) => e.target.closest("fieldset").querySelectorAll("input").forEach((i) => (i.checked = false)) }, t("lobby.none"))),
      help);
  }
  if (opt.kind === "int") {
    return h("div", { class: "field" }, h("label", { for: id }, label),
      h("input", { id, name: opt.name, type: "number", value: opt.default, min: opt.minimum ?? undefined, max: opt.maximum ?? undefined, "aria-describedby": `${id}-help` }), help);
  }
  return h("div", { class: "field" }, h("label", { for: id }, label),
    h("input", { id, name: opt.name, type: "text", value: opt.default ?? "", "aria-describedby": `${id}-help` }), help);
}

function readOptions(game, form) {
  const out = {};
  for (const opt of game.options) {
    if (opt.kind === "multi") {
      const picked = [...form.querySelectorAll(`fieldset[data-name="${opt.name}"] input:checked`)].map((i) => i.value);
      out[opt.name] = picked.join(",");
    } else {
      const el = form.querySelector(`[name="${opt.name}"]`);
      if (!el) continue;
      out[opt.name] = opt.kind === "int" ? Number(el.value) : el.value;
    }
  }
  return out;
}

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
  return h("div", { class: "field seat-field" }, h("label", { for: id }, t("lobby.seat_n", { n: i + 1, noun: t(`noun.${game.seat_noun}`) })), select, summary);
}

// The seat counts the chosen options allow: the game's range, narrowed by each choice
// option's `seats` (choice -> [lowest, highest]) from /api/games.
function seatRange(game, form) {
  let [lo, hi] = [game.min_players, game.max_players];
  for (const opt of game.options) {
    const el = opt.seats && form.querySelector(`[name="${opt.name}"]`);
    const narrowed = el && opt.seats[el.value];
    if (narrowed) [lo, hi] = [Math.max(lo, narrowed[0]), Math.min(hi, narrowed[1])];
  }
  return [lo, hi];
}

function renderDetail(game) {
  const seatsBox = h("div", { class: "seats-box" });
  const count = h("select", { id: "seat-count" });
  const drawSeats = () => {
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const n = Number(count.value);
    replace(seatsBox, Array.from({ length: n }, (_, i) => seatRow(game, i, old[i] || (i === 0 ? "human" : `bot:${defaultBot(game)}`))));
  };
  // only the counts the chosen options allow are offered (redrawn when an option changes)
  const drawCounts = () => {
    const [lo, hi] = seatRange(game, form);
    const was = Number(count.value) || Math.max(lo, Math.min(2, hi));
    const keep = Math.max(lo, Math.min(was, hi));
    replace(count, Array.from({ length: Math.max(0, hi - lo + 1) }, (_, i) => h("option", { value: lo + i, selected: lo + i === keep }, String(lo + i))));
    count.value = String(keep);
    drawSeats();
  };
  count.addEventListener("change", drawSeats);
  const name = h("input", { id: "my-name", type: "text", maxlength: 40, value: store.name() || "", autocomplete: "nickname", required: true });
  const form = h("form", { class: "create", id: "create-form" },
    game.options.length ? h("fieldset", { class: "group" }, h("legend", {}, t("lobby.options")), game.options.map((o) => optionField(game, o))) : null,
    h("fieldset", { class: "group" }, h("legend", {}, t("lobby.seats")),
      h("div", { class: "field" }, h("label", { for: "seat-count" }, t("lobby.count", { noun: t(`noun.${game.seat_noun}s`) })), count),
      seatsBox,
      h("div", { class: "field" }, h("label", { for: "my-name" }, t("lobby.your_name")), name)),
    h("fieldset", { class: "group" }, h("legend", {}, t("lobby.room")),
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "public" }), t("lobby.public")),
      game.hints ? h("label", { class: "check" }, h("input", { type: "checkbox", id: "hints", checked: true }), t("lobby.hints")) : null,
      game.odds ? h("label", { class: "check" }, h("input", { type: "checkbox", id: "odds" }), t("lobby.odds")) : null,
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "pace" }), t("lobby.pace"))),
    h("div", { class: "actions" }, h("button", { type: "submit", class: "primary", id: "create" }, t("lobby.create"))));
  form.addEventListener("change", (e) => { if (e.target !== count && !seatsBox.contains(e.target)) drawCounts(); });
  drawCounts();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    showError("");
    const seats = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const me = name.value.trim();
    if (seats.includes("human") && !me) {
      name.focus();
      showError(t("room.name_needed"));
      return;
    }
    const body = {
      game: game.id,
      seats,
      options: readOptions(game, form),
      public: $("#public").checked,
      room: {
        hints: !!(game.hints && $("#hints").checked),
        odds: !!(game.odds && $("#odds").checked),
        bot_pace: $("#pace").checked ? 0.8 : 0,
      },
    };
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
      showError(err.message);
    }
  });
  replace($("#game-detail"),
    h("div", { class: "game-info" },
      h("h3", {}, game.name),
      h("p", {}, game.summary),
      h("p", {}, h("a", { href: `/rules?game=${encodeURIComponent(game.id)}` }, t("lobby.rules", { name: game.name }))),
      h("p", { class: "muted" }, game.min_players === game.max_players
        ? t("lobby.players_exactly", { n: game.min_players, noun: t(`noun.${game.seat_noun}s`) })
        : t("lobby.players", { min: game.min_players, max: game.max_players, noun: t(`noun.${game.seat_noun}s`) }))),
    form);
}

function renderGames() {
  replace($("#games"), games.map((g) => h("button", {
    type: "button", role: "radio", class: "game-choice", "aria-checked": chosen === g ? "true" : "false", "data-game": g.id, "data-key": `game-${g.id}`,
    onclick: () => { chosen = g; renderGames(); renderDetail(g); },
  }, h("span", { class: "game-name" }, g.name))));
}

async function renderMine() {
  const mine = Object.entries(store.rooms()).sort((a, b) => (b[1].touched || 0) - (a[1].touched || 0)).slice(0, 12);
  const items = [];
  for (const [code, info] of mine) {
    let room = null;
    try {
      room = await api.room(code);
    } catch {
      store.forget(code);
      continue;
    }
    if (room.status === "finished" || room.status === "closed") continue;
    const game = games.find((g) => g.id === room.game);
    items.push(h("li", {}, h("a", { href: `/r/${encodeURIComponent(code)}` }, game ? game.name : room.game),
      " — ", t(`room.status.${room.status}`), info.seat !== null && info.seat !== undefined ? ` · ${t("lobby.your_seat", { n: info.seat + 1 })}` : "",
      info.hostToken ? ` · ${t("lobby.host")}` : ""));
  }
  replace($("#mine"), items.length ? h("ul", { class: "room-list" }, items) : h("p", { class: "muted" }, t("lobby.mine_none")));
}

async function renderOpen() {
  let rooms = [];
  try {
    rooms = await api.rooms();
  } catch {
    rooms = [];
  }
  replace($("#open"), rooms.length
    ? h("ul", { class: "room-list" }, rooms.map((r) => {
        const game = games.find((g) => g.id === r.game);
        const free = r.seats.filter((s) => s.kind === "human" && !s.claimed).length;
        return h("li", {}, h("a", { href: r.invite }, game ? game.name : r.game), " — ", t(`room.status.${r.status}`),
          " · ", t("lobby.free_seats", { n: free }), " · ", r.seats.map((s) => s.name || (s.kind === "bot" ? s.bot : "…")).join(", "));
      }))
    : h("p", { class: "muted" }, t("lobby.open_none")));
}

async function main() {
  try {
    games = await api.games();
    const urls = new Set(games.flatMap((g) => g.options.filter((o) => o.catalogue).map((o) => o.catalogue.url)));
    await Promise.all([...urls].map(async (url) => catalogues.set(url, await api.catalogue(url).catch(() => []))));
    await Promise.all(games.map((g) => loadGameMessages(g.id))); // their option names
  } catch (err) {
    showError(err.message);
    return;
  }
  const wanted = new URLSearchParams(location.search).get("game");
  chosen = games.find((g) => g.id === wanted) || games[0];
  renderGames();
  renderDetail(chosen);
  renderMine();
  renderOpen();
  setInterval(renderOpen, 10000);
}

main();
