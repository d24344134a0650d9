// The Decades: the 40-year board in decade rows (each team's side with its bonus years),
// the question card, the secret year choice (hidden until both teams chose), extension
// tokens placed on the board itself, the action-card hand, the score track with the
// early-win line, and the reveals (both answers of a question; at a round's end every
// true year and the points). Each team sees only what its view holds: its own hand and
// choice. The renderer never decides what is legal: every control it offers matches one
// of the `legal` actions the server sent.
import { h } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { actButton, findLegal, legalOfType, nameOf, panel } from "../parts/common.js";

const FIRST = 1980;
const YEARS_PER_ROW = 10;
const QUESTIONS = 6;
const card = (name) => tOr(`dc.card.${name}`, name);
/** An action card as the table shows it wherever it is chosen, held or played: its name
 * and what it does (the vocabulary's dc.card_help.*, in the page's language). */
const cardFace = (name) => [h("span", { class: "card-name" }, card(name)),
  tOr(`dc.card_help.${name}`, "") ? h("span", { class: "card-text" }, t(`dc.card_help.${name}`)) : null];
const catName = (c, fallback) => tOr(`dc.cat.${c}`, fallback || c);
const span = (from, to) => (from === to ? String(from) : t("dc.span", { from, to }));
const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0");
const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

function tokenLabel(tok) {
  return t("dc.token", { count: tok.length, length: tok.length, from: tok.start, to: tok.start + tok.length - 1 });
}

const tokensText = (tokens) => (tokens && tokens.length ? tokens.map(tokenLabel).join(", ") : t("dc.no_tokens_placed"));

// ----- the reveals: renderer-local state, driven by the events ------------------------------
// The game state moves on at once (the next question, the next round); the reveal keeps
// what the events just made public on screen until the player continues. Only events that
// arrive while the table is shown count (not the history a snapshot replays on load).
const REVEAL_AUTO_MS = 15000; // the round reveal continues by itself after this
const STAGE_MS = 700; // one stage (a question's answers+true year, then its points)
const reveal = {
  live: false, // the table has been drawn: later events are news
  round: null, // {round, lines: [Scored...], final, dismissed, stage, timer}
  answersShown: null, // "round:question" of the answers panel drawn last
  rerender: null,
};

function noteEvent(e, ctx) {
  if (ctx.replay || !reveal.live) return;
  if (e.kind === "score") {
    if (!reveal.round || reveal.round.round !== e.round || reveal.round.dismissed) {
      stopRound();
      reveal.round = { round: e.round, lines: [], final: null, dismissed: false, stage: 1, timer: 0, started: false };
    }
    reveal.round.lines.push(e);
  } else if (e.kind === "end" && reveal.round && !reveal.round.dismissed) {
    reveal.round.final = e;
  }
}

function stopRound() {
  if (reveal.round && reveal.round.timer) clearTimeout(reveal.round.timer);
}

function dismissRound() {
  if (!reveal.round) return;
  stopRound();
  reveal.round.dismissed = true;
  reveal.round.focusAfter = true;
  if (reveal.rerender) reveal.rerender();
}

/** Advance the staged round reveal: each question shows its answers and true year, then
 * its points; with reduced motion everything shows at once. Then it waits for Continue,
 * or continues by itself after REVEAL_AUTO_MS. */
function scheduleRound() {
  const r = reveal.round;
  if (!r || r.dismissed || r.timer) return;
  const stages = r.lines.length * 2;
  if (!r.started) {
    r.started = true;
    if (reducedMotion()) r.stage = stages;
  }
  if (r.stage < stages) {
    r.timer = setTimeout(() => {
      r.timer = 0;
      r.stage += 1;
      if (reveal.rerender) reveal.rerender();
    }, STAGE_MS);
  } else {
    r.timer = setTimeout(() => {
      r.timer = 0;
      dismissRound();
    }, REVEAL_AUTO_MS);
  }
}

function roundRevealActive() {
  return !!(reveal.round && !reveal.round.dismissed && reveal.round.lines.length);
}

// ----- the board ----------------------------------------------------------------------------

/** The years covered by tokens: year -> {length, start, end, kind} (kind: "placed" for the
 * tokens being laid now, "pending" for our secret ones, "" for revealed ones). */
function coverage(tokens, kind, into = new Map()) {
  for (const tok of tokens || []) {
    for (let y = tok.start; y < tok.start + tok.length; y++) {
      into.set(y, { length: tok.length, start: tok.start, end: tok.start + tok.length - 1, kind });
    }
  }
  return into;
}

function board(v, team, ctx, me, shown, placing) {
  const info = v.teams[team];
  const bonus = new Map((info.bonuses || []).map(([y, p]) => [y, p]));
  const answers = shown ? shown.answers[team] : info.answers || [];
  const mine = team === me;
  const covered = new Map();
  if (shown) coverage(shown.tokens[team], "", covered);
  else {
    coverage(info.tokens, "", covered);
    if (mine && v.pending && v.pending.type === "extend") coverage(v.pending.tokens, "pending", covered);
    if (mine && placing) coverage(placing.placedTokens, "placed", covered);
  }
  const truths = new Map();
  if (shown) shown.truths.forEach((y, q) => truths.set(y, [...(truths.get(y) || []), q + 1]));
  const pick = ctx.local.year;
  // our own secret year, waiting for the other team (only our own view holds it)
  const pending = mine && !shown && v.pending && v.pending.type === "answer" ? v.pending.year : undefined;
  const canAnswer = mine && !shown && legalOfType(ctx.legal, "answer").length > 0;
  const spots = mine && placing ? placing.spots : new Map();
  const rows = [];
  for (let decade = 0; decade < 4; decade++) {
    const cells = [];
    const d = FIRST + decade * YEARS_PER_ROW;
    for (let i = 0; i < YEARS_PER_ROW; i++) {
      const year = d + i;
      const marks = answers.map((y, q) => (y === year ? h("span", { class: `mark team-${team}`, "data-team": team, "data-year": year, "data-q": q }, String(q + 1)) : null)).filter(Boolean);
      if (pending === year) marks.push(h("span", { class: `mark pending team-${team}`, "data-team": team, "data-year": year, "data-q": answers.length, title: t("dc.pending") }, String(answers.length + 1)));
      const cov = covered.get(year);
      const truth = truths.get(year);
      const content = [
        h("span", { class: "dc-year" }, String(year).slice(2)),
        bonus.has(year) ? h("span", { class: "dc-bonus" }, `+${bonus.get(year)}`) : null,
        marks.length ? h("span", { class: "dc-marks" }, marks) : null,
        truth ? h("span", { class: "dc-truth" }, `★${truth.join(",")}`) : null,
      ];
      const cls = ["dc-cell",
        bonus.has(year) ? "has-bonus" : "",
        cov ? `tok tok-${cov.length} ${cov.kind}` : "",
        cov && cov.start === year ? "tok-start" : "",
        cov && cov.end === year ? "tok-end" : "",
        truth ? "truth" : "",
        pick === year && canAnswer ? "picked" : ""].filter(Boolean).join(" ");
      const label = [String(year), bonus.has(year) ? t("dc.bonus", { n: bonus.get(year) }) : "",
        marks.length ? t("dc.answers_here", { list: marks.map((m) => m.textContent).join(", ") }) : "",
        cov ? t("dc.covered") : "",
        truth ? t("dc.truth_here", { list: truth.join(", ") }) : ""].filter(Boolean).join(", ");
      const legal = canAnswer && findLegal(ctx.legal, { type: "answer", year });
      const spot = spots.get(year);
      if (legal) {
        cells.push(h("button", { type: "button", class: `cell ${cls}`, "data-key": `year-${year}`, "data-year": year, "aria-pressed": pick === year ? "true" : "false", "aria-label": label,
          disabled: ctx.busy, onclick: () => { ctx.local.year = year; ctx.rerender(); } }, content));
      } else if (spot) {
        const to = year + placing.holding - 1;
        cells.push(h("button", { type: "button", class: `${cls} dc-spot`, "data-key": `spot-${year}`, "data-year": year, "data-length": placing.holding,
          "aria-label": `${t("dc.spot", { n: placing.holding, from: year, to })}. ${label}`, disabled: ctx.busy,
          onmouseenter: (e) => preview(e.currentTarget, year, to), onfocus: (e) => preview(e.currentTarget, year, to),
          onmouseleave: (e) => unpreview(e.currentTarget), onblur: (e) => unpreview(e.currentTarget),
          onkeydown: spotKeys, onclick: (e) => placing.place(year, e) }, content));
      } else {
        cells.push(h("div", { class: `cell ${cls}`, "data-year": year, role: "img", "aria-label": label }, content));
      }
    }
    rows.push(h("div", { class: "dc-row" },
      h("span", { class: "dc-decade", "aria-hidden": "true" }, t("dc.decade_short", { d })),
      h("div", { class: "decade", role: "group", "aria-label": t("dc.decade", { d }) }, cells)));
  }
  const tokens = shown ? shown.tokens[team] : info.tokens;
  return h("section", { class: `panel board team-${team} ${mine ? "mine" : ""} ${placing && mine ? "placing" : ""}`, "aria-label": t("dc.board", { name: nameOf(ctx, team) }) },
    h("h3", { class: "dc-board-title" }, h("span", { class: `dc-swatch team-${team}`, "aria-hidden": "true" }),
      t("dc.board", { name: nameOf(ctx, team) }),
      h("span", { class: "dc-side muted" }, t("dc.side", { side: info.side })),
      mine ? h("span", { class: "tag" }, t("seat.you")) : null),
    h("div", { class: "dc-board-rows" }, rows),
    tokens && tokens.length ? h("p", { class: "muted dc-token-list" }, t("dc.tokens"), " ", tokensText(tokens)) : null);
}

// the preview of a token's years, drawn straight on the cells (no redraw on hover/focus)
function preview(button, from, to) {
  const rows = button.closest(".dc-board-rows");
  if (!rows) return;
  unpreview(button);
  for (const cell of rows.querySelectorAll("[data-year]")) {
    const y = Number(cell.dataset.year);
    if (y >= from && y <= to) cell.classList.add("preview", ...(y === from ? ["preview-start"] : []), ...(y === to ? ["preview-end"] : []));
  }
}

function unpreview(button) {
  const rows = button.closest(".dc-board-rows");
  if (rows) for (const cell of rows.querySelectorAll(".preview")) cell.classList.remove("preview", "preview-start", "preview-end");
}

// arrow keys move between the offered spots (Tab and Enter work as well)
function spotKeys(e) {
  const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (!(e.key in keys)) return;
  const all = [...e.currentTarget.closest(".dc-board-rows").querySelectorAll("button.dc-spot:enabled")];
  const next = all[(all.indexOf(e.currentTarget) + keys[e.key] + all.length) % all.length];
  if (next) {
    e.preventDefault();
    next.focus();
  }
}

// ----- placing the extension tokens -----------------------------------------------------------
// A combination is built one token at a time: the tokens placed so far must be part of some
// legal Extend, and the one sent must equal a legal Extend exactly.
const tokenKey = (tok) => `${tok.length}@${tok.start}`;
// a click from Enter or Space has no pointer position: then the focus follows the next step
const byKeyboard = (e) => !!e && e.detail === 0;

function placingState(ctx) {
  const options = legalOfType(ctx.legal, "extend");
  if (!options.length) return null;
  const local = ctx.local;
  local.placed ||= new Map(); // length -> start
  const placedTokens = [...local.placed].map(([length, start]) => ({ length, start })).sort((a, b) => a.length - b.length);
  const placedKeys = placedTokens.map(tokenKey);
  const fits = options.filter((a) => placedKeys.every((k) => a.tokens.some((tok) => tokenKey(tok) === k)));
  // the lengths still to place, and where each may go with what is placed
  const spotsFor = (length) => {
    const out = new Map();
    for (const a of fits) for (const tok of a.tokens) if (tok.length === length && !local.placed.has(length)) out.set(tok.start, a);
    return out;
  };
  const lengths = [...new Set(options.flatMap((a) => a.tokens.map((tok) => tok.length)))].sort((a, b) => a - b);
  if (local.holding === undefined || (local.holding !== null && (local.placed.has(local.holding) || !spotsFor(local.holding).size))) {
    local.holding = lengths.find((n) => !local.placed.has(n) && spotsFor(n).size) ?? null;
  }
  const action = fits.find((a) => a.tokens.length === placedTokens.length);
  const st = {
    options, lengths, placedTokens, action, holding: local.holding,
    spots: local.holding ? spotsFor(local.holding) : new Map(),
    spotsFor,
    place(year, e) {
      local.placed.set(local.holding, year);
      local.holding = undefined; // the next token to place, if any, is picked up by itself
      local.focus = byKeyboard(e) ? "next" : null;
      ctx.rerender();
    },
  };
  return st;
}

// Dragging a token onto the board (optional: tapping works everywhere): once the pointer
// has moved a little, the token is in hand (its spots are drawn), a ghost follows the
// pointer, the spot under it previews its years, and letting go on a spot lays it there.
function dragToken(e, n, ctx, st) {
  if (e.button !== 0 || ctx.busy) return;
  const from = [e.clientX, e.clientY];
  let ghost = null;
  let over = null;
  const move = (ev) => {
    if (!ghost) {
      if (Math.hypot(ev.clientX - from[0], ev.clientY - from[1]) < 10) return;
      if (ctx.local.holding !== n) {
        ctx.local.holding = n;
        ctx.rerender();
      }
      ghost = h("div", { class: `dc-ghost team-${ctx.seat}`, "aria-hidden": "true" }, Array.from({ length: n }, () => h("span", {})));
      document.body.append(ghost);
    }
    ghost.style.left = `${ev.clientX}px`;
    ghost.style.top = `${ev.clientY}px`;
    // near the window's top or bottom edge, the page scrolls towards the board
    const edge = 48;
    if (ev.clientY > window.innerHeight - edge) window.scrollBy(0, 24);
    else if (ev.clientY < edge) window.scrollBy(0, -24);
    const under = document.elementFromPoint(ev.clientX, ev.clientY);
    const spot = under && under.closest("button.dc-spot");
    if (spot !== over) {
      if (over && over.isConnected) unpreview(over);
      over = spot;
      if (spot) preview(spot, Number(spot.dataset.year), Number(spot.dataset.year) + n - 1);
    }
  };
  const done = (ev) => {
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", done);
    document.removeEventListener("pointercancel", done);
    if (!ghost) return; // not a drag: the click picks the token up
    ghost.remove();
    if (ev.type === "pointerup" && over && over.isConnected && ctx.local.holding === n) st.place(Number(over.dataset.year));
  };
  document.addEventListener("pointermove", move);
  document.addEventListener("pointerup", done);
  document.addEventListener("pointercancel", done);
}

// The general help shows in the first round only: from then on the players know it, and
// the board's last row stays on a phone's screen with the panel above it.
function extendPanel(ctx, st, first) {
  const local = ctx.local;
  const chips = st.lengths.map((n) => {
    const at = local.placed.get(n);
    if (at !== undefined) {
      // the placed token is one button the size of the others (tap: take it back); with its
      // words and a separate button beside it, a phone's third of the tray wrapped them a
      // letter a line and the button ended up under the next chip
      return h("li", { class: `dc-token-chip placed team-${ctx.seat}` },
        h("button", { type: "button", class: "dc-undo", "data-key": `undo-${n}`, disabled: ctx.busy,
          onclick: (e) => { local.placed.delete(n); local.holding = n; local.focus = byKeyboard(e) ? "spot" : null; ctx.rerender(); } },
          h("span", { class: "dc-token-bar", "aria-hidden": "true" }, Array.from({ length: n }, () => h("span", {}))),
          h("span", { class: "visually-hidden" }, `${t("dc.token_placed", { n, from: at, to: at + n - 1 })}: `),
          h("span", { class: "dc-token-text", "aria-hidden": "true" }, span(at, at + n - 1)),
          h("span", { class: "dc-undo-text" }, t("dc.take_back_short"))));
    }
    const room = st.spotsFor(n).size > 0;
    return h("li", { class: `dc-token-chip team-${ctx.seat}` },
      h("button", { type: "button", class: `dc-token ${st.holding === n ? "selected" : ""}`, "data-key": `token-${n}`, "data-length": n,
        "aria-pressed": st.holding === n ? "true" : "false", "aria-label": room ? null : t("dc.token_unplaceable", { n }), disabled: !room || ctx.busy, onpointerdown: (e) => dragToken(e, n, ctx, st),
        onclick: (e) => { local.holding = st.holding === n ? null : n; local.focus = local.holding && byKeyboard(e) ? "spot" : `token-${n}`; ctx.rerender(); } },
        h("span", { class: "dc-token-bar", "aria-hidden": "true" }, Array.from({ length: n }, () => h("span", {}))),
        // under the bar, "2 years" or "no room": the long form wrapped to two lines on a
        // phone and pushed the board's last row off the screen; the button's name is whole
        room ? h("span", { class: "visually-hidden" }, t("dc.token_choose", { n })) : null,
        h("span", { class: "dc-token-text", "aria-hidden": room ? "true" : null }, room ? t("dc.token_short", { n }) : t("dc.token_no_room"))));
  });
  const help = !st.lengths.length ? t("dc.extend_nowhere") : st.holding ? t("dc.extend_pick", { n: st.holding })
    : st.placedTokens.length ? t("dc.extend_none_left") : t("dc.extend_choose");
  return h("section", { class: "panel dc-extend" },
    h("h3", {}, t("dc.extend_title")),
    first ? h("p", { class: "muted" }, t("dc.extend_help")) : null,
    st.lengths.length ? h("ul", { class: "dc-tray" }, chips) : null,
    h("p", { class: "dc-extend-hint", "aria-live": "polite" }, help),
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "extend", disabled: !st.action || ctx.busy, onclick: () => ctx.act(st.action) },
        // on a phone without the list (the chips above show it): a label growing a line
        // with each token pushed the board's last rows off the screen mid-step
        st.placedTokens.length ? [h("span", { class: "dc-confirm-long" }, t("dc.place_tokens", { list: tokensText(st.placedTokens) })),
          h("span", { class: "dc-confirm-short" }, t("dc.place_tokens_short", { count: st.placedTokens.length }))] : t("dc.place_none")),
      h("span", { class: "muted" }, t("dc.secret"))));
}

// ----- score track --------------------------------------------------------------------------

function scoreTrack(v, ctx) {
  const track = v.track;
  const scores = v.teams.map((tm) => tm.score);
  const low = Math.min(0, ...scores);
  const spanPts = Math.max(1, track - low);
  const pct = (score) => ((Math.max(low, Math.min(track, score)) - low) / spanPts) * 100;
  const pawn = (i) => {
    const el = h("span", { class: `dc-pawn team-${i}`, "aria-hidden": "true" }, String(scores[i]));
    el.style.left = `${pct(scores[i])}%`;
    return el;
  };
  const zero = h("span", { class: "dc-zero", "aria-hidden": "true" });
  zero.style.left = `${pct(0)}%`;
  return h("section", { class: "panel dc-score" },
    h("h3", {}, t("dc.score_track")),
    h("div", { class: "dc-track", role: "img", "aria-label": t("dc.track_label", { a: nameOf(ctx, 0), sa: t("dc.points", { count: scores[0] }), b: nameOf(ctx, 1), sb: t("dc.points", { count: scores[1] }), track: t("dc.early_win", { count: track }) }) },
      h("span", { class: "dc-lane" }), zero, h("span", { class: "dc-goal", "aria-hidden": "true" }), pawn(0), pawn(1)),
    h("ul", { class: "dc-legend" },
      [0, 1].map((i) => h("li", { class: `team-${i} ${i === ctx.seat ? "me" : ""}` },
        h("span", { class: `dc-swatch team-${i}`, "aria-hidden": "true" }),
        h("span", { class: "dc-name" }, nameOf(ctx, i)),
        h("strong", { class: "dc-points" }, t("dc.points", { count: scores[i] })))),
      h("li", { class: "dc-goal-note muted" }, t("dc.early_win", { count: track }))));
}

// ----- results: one question's answers, true year and points ------------------------------

function resultList(lines, ctx, { stage = Infinity, fresh = -1 } = {}) {
  return h("ol", { class: "dc-results" }, lines.map((c, i) => {
    if (stage < i * 2 + 1) return null;
    const points = stage >= i * 2 + 2;
    const isFresh = fresh === i * 2 || fresh === i * 2 + 1;
    return h("li", { class: `dc-result ${isFresh ? "fresh" : ""}`, "data-q": i },
      h("div", { class: "dc-result-q" },
        h("span", { class: "dc-cat" }, `${i + 1}. ${catName(c.category)}`),
        h("span", { class: "dc-qtext" }, c.text)),
      h("div", { class: "dc-truth-year" }, h("span", { class: "muted" }, t("dc.true_year_short")), h("strong", {}, String(c.year))),
      h("ul", { class: "dc-result-teams" }, (c.scores || []).map((sc, team) => h("li", { class: `team-${team}` },
        h("span", { class: `dc-swatch team-${team}`, "aria-hidden": "true" }),
        h("span", { class: "dc-name" }, nameOf(ctx, team)),
        h("span", { class: "dc-answer" }, span(sc.low, sc.high)),
        points ? h("span", { class: `dc-outcome ${sc.outcome}` }, t(`dc.outcome.${sc.outcome}`)) : null,
        points ? h("strong", { class: `dc-pts ${sc.base + sc.bonus > 0 ? "plus" : sc.base + sc.bonus < 0 ? "minus" : ""}` }, signed(sc.base + sc.bonus)) : null))));
  }));
}

function teamLegend(ctx, extra) {
  return h("ul", { class: "dc-legend" }, [0, 1].map((i) => h("li", { class: `team-${i} ${i === ctx.seat ? "me" : ""}` },
    h("span", { class: `dc-swatch team-${i}`, "aria-hidden": "true" }),
    h("span", { class: "dc-name" }, nameOf(ctx, i)),
    extra ? extra(i) : null)));
}

function totalsText(totals, ctx) {
  return totals.map((n, i) => `${nameOf(ctx, i)} ${n}`).join(" · ");
}

function roundReveal(v, ctx) {
  const r = reveal.round;
  scheduleRound();
  if (!r.focused) {
    r.focused = true; // the reveal takes the place of what was focused: focus Continue
    ctx.local.focus = "reveal-continue";
  }
  const stages = r.lines.length * 2;
  const done = r.stage >= stages;
  const last = r.lines[r.lines.length - 1];
  return h("section", { class: "panel dc-reveal", "aria-labelledby": "dc-reveal-title", "data-round": r.round, "data-stage": r.stage, "data-done": done ? "true" : "false" },
    h("h3", { id: "dc-reveal-title" }, t("dc.reveal_title", { n: r.round })),
    teamLegend(ctx),
    resultList(r.lines, ctx, { stage: r.stage, fresh: r.stage - 1 }),
    h("p", { class: "muted" }, t("dc.truth_legend")),
    done ? h("p", { class: "dc-totals" }, r.final ? t("dc.reveal_final", { list: totalsText(r.final.scores, ctx) }) : t("dc.reveal_totals", { list: totalsText(last.totals, ctx) })) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "primary", "data-key": "reveal-continue", onclick: dismissRound }, t("dc.reveal_continue")),
      r.final ? null : h("span", { class: "muted" }, t("dc.reveal_auto"))));
}

// both answers of the question just revealed, until the next one is (read from the view,
// which holds every revealed answer of the round, so a reload shows it too)
function answersReveal(v, ctx) {
  const index = v.phase === "answer" ? v.questions.length - 2 : v.phase === "extend" ? QUESTIONS - 1 : -1;
  const years = v.teams.map((tm) => (tm.answers || [])[index]);
  const q = v.questions[index];
  if (index < 0 || !q || years.some((y) => y === undefined)) return null;
  const key = `${v.round}:${index}`;
  const fresh = reveal.answersShown !== key; // drawn for the first time: it pops in
  reveal.answersShown = key;
  return h("section", { class: `panel dc-answers-reveal ${fresh && reveal.live ? "fresh" : ""}`, "data-q": index },
    h("h3", {}, t("dc.answers_title", { cat: catName(q.category, q.name) })),
    h("p", { class: "dc-qtext" }, q.text),
    h("ul", { class: "dc-result-teams" }, years.map((y, team) => h("li", { class: `team-${team}` },
      h("span", { class: `dc-swatch team-${team}`, "aria-hidden": "true" }),
      h("span", { class: "dc-name" }, nameOf(ctx, team)),
      h("strong", { class: "dc-answer" }, String(y))))));
}

// the two teams at a glance: name, score, and whether each still has to choose
function teamStrip(v, ctx) {
  return h("ul", { class: "dc-teams", "aria-label": t("dc.teams") }, [0, 1].map((i) => {
    const tm = v.teams[i];
    const acting = tm.to_act && !v.finished;
    return h("li", { class: `dc-team team-${i} ${i === ctx.seat ? "me" : ""} ${acting ? "acting" : ""}` },
      h("span", { class: "dc-team-name" }, h("span", { class: `dc-swatch team-${i}`, "aria-hidden": "true" }),
        h("span", { class: "dc-name", title: nameOf(ctx, i) }, nameOf(ctx, i))),
      h("strong", { class: "dc-team-score" }, h("span", { "aria-hidden": "true" }, String(tm.score)), h("span", { class: "visually-hidden" }, t("dc.points", { count: tm.score }))),
      h("span", { class: "dc-team-state" }, i === ctx.seat ? h("span", { class: "tag" }, t("seat.you")) : null,
        v.finished ? null : acting ? t("dc.team.choosing") : t("dc.team.ready")));
  }));
}

function lastRound(v, ctx) {
  const round = v.log && v.log.length ? v.log[v.log.length - 1] : null;
  if (!round) return null;
  return h("section", { class: "panel dc-last" }, h("h3", {}, t("dc.round_result", { n: round.round })),
    teamLegend(ctx), resultList(round.categories || [], ctx));
}

// The deal grouped by kind, one tile each (at most three, whatever the deal): tapping a
// tile keeps one more of that kind, its "−" takes one back. Seven cards one by one, each
// saying what it does, ran past a phone's screen, the Keep button with them.
function keepPicker(v, ctx) {
  const keeps = legalOfType(ctx.legal, "keep");
  if (!keeps.length) return null;
  const need = keeps[0].cards.length;
  const dealt = new Map();
  for (const c of v.dealt) dealt.set(c, (dealt.get(c) || 0) + 1);
  const chosen = (ctx.local.keepKinds ||= {});
  const took = (kind) => Math.min(chosen[kind] || 0, dealt.get(kind) || 0);
  const total = [...dealt.keys()].reduce((n, kind) => n + took(kind), 0);
  const names = [...dealt.keys()].flatMap((kind) => Array(took(kind)).fill(kind)).sort();
  const action = keeps.find((a) => JSON.stringify([...a.cards].sort()) === JSON.stringify(names));
  const set = (kind, n) => { chosen[kind] = n; ctx.rerender(); };
  return panel(t("dc.keep_title", { n: need }),
    h("ul", { class: "keep-picker" }, [...dealt].map(([kind, have]) => {
      const n = took(kind);
      return h("li", { class: `keep-kind ${n ? "selected" : ""}`, "data-card": kind },
        h("button", { type: "button", class: `card ${n ? "selected" : ""}`, "data-key": `deal-${kind}`, "data-card": kind,
          disabled: n >= have || total >= need || ctx.busy, onclick: () => set(kind, n + 1) },
          cardFace(kind),
          h("span", { class: "keep-count" }, h("span", { class: "dealt" }, t("dc.keep_dealt", { n: have })),
            h("strong", { class: "kept", "data-kept": String(n) }, t("dc.keep_kept", { n })))),
        h("button", { type: "button", class: "keep-less", "data-key": `less-${kind}`, disabled: !n || ctx.busy,
          "aria-label": t("dc.keep_less", { card: card(kind) }), onclick: () => set(kind, n - 1) }, "−"));
    })),
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary", "data-key": "keep", disabled: !action || ctx.busy, onclick: () => ctx.act(action) }, t("dc.keep", { n: total, of: need }))));
}

function turnLine(v, ctx) {
  if (v.finished) return t("dc.over");
  const me = ctx.seat;
  const acting = v.teams.map((tm) => tm.to_act);
  if (me === null) return acting.every(Boolean) ? t("dc.turn.both") : t("dc.turn.other", { name: nameOf(ctx, acting.indexOf(true)) });
  if (acting[me]) return ""; // the room's own turn signal says "Your turn"
  if (acting[1 - me]) return t("dc.turn.done", { name: nameOf(ctx, 1 - me) });
  return "";
}

// where focus goes after a local step of the token placement (the redraw has replaced the
// elements; a keyboard player goes on where the next step is)
function moveFocus(ctx, st) {
  const want = ctx.local.focus;
  if (!want) return;
  ctx.local.focus = null;
  let key = want;
  if (want === "spot" || want === "next") {
    if (st && st.spots.size) key = `spot-${[...st.spots.keys()].sort((a, b) => a - b)[0]}`;
    else key = "extend";
  }
  queueMicrotask(() => {
    // never take the focus from elsewhere (the chat): only from the table or from nowhere
    const active = document.activeElement;
    if (active && active !== document.body && !active.closest("#table")) return;
    const el = document.querySelector(`#table [data-key="${key}"]`);
    if (el && !el.disabled) el.focus({ preventScroll: false });
  });
}

// What the player is putting together (a year picked, cards to keep, tokens laid down)
// survives the other team's moves: those change the seq, and the room resets ctx.local at
// every seq. It is kept per step of the game instead (the round, the step, the question).
const drafts = { key: null, local: {} };

function draft(ctx) {
  if (ctx.replay) return ctx.local;
  const v = ctx.view;
  const key = `${v.round}:${v.phase}:${v.questions.length}:${ctx.seat}`;
  if (drafts.key !== key) {
    drafts.key = key;
    drafts.local = {};
  }
  return drafts.local;
}

export default {
  render(ctx) {
    ctx = { ...ctx, local: draft(ctx) };
    const v = ctx.view;
    const me = ctx.seat;
    if (!ctx.replay) {
      reveal.live = true;
      reveal.rerender = ctx.rerender;
    }
    const myTeam = me === null ? null : v.teams[me];
    const revealing = !ctx.replay && roundRevealActive();
    const question = !revealing && v.phase === "answer" && v.questions.length ? v.questions[v.questions.length - 1] : null;
    const pick = ctx.local.year;
    const answerAction = pick !== undefined ? findLegal(ctx.legal, { type: "answer", year: pick }) : undefined;
    const pendingYear = v.pending && v.pending.type === "answer" ? v.pending.year : undefined;
    const placing = revealing ? null : placingState(ctx);
    const plays = revealing ? [] : legalOfType(ctx.legal, "play");
    const others = revealing ? [] : (ctx.legal || []).filter((a) => !["keep", "answer", "extend", "play"].includes(a.type));
    const boards = me === 1 ? [1, 0] : [0, 1];
    // while the round's reveal is up, the boards show that round: answers, tokens, true years
    const last = v.log && v.log.length ? v.log[v.log.length - 1] : null;
    const shown = revealing && last && last.round === reveal.round.round
      ? { answers: last.answers, tokens: last.tokens, truths: (last.categories || []).map((c) => c.year) } : null;
    const waitingOther = myTeam && !myTeam.to_act && !v.finished && !revealing;
    const turn = turnLine(v, ctx);
    const focusReveal = reveal.round && reveal.round.focusAfter;
    if (focusReveal) {
      reveal.round.focusAfter = false;
      ctx.local.focus ||= question ? "question" : null;
    }
    const table = h("div", { class: `table decades ${revealing ? "revealing" : ""}`, "data-phase": v.phase },
      h("div", { class: "dc-head" },
        h("h2", { class: "status-line" }, v.finished ? t("dc.final_boards", { n: v.round })
          : t(v.round ? "dc.status" : "dc.status_before", { round: v.round, rounds: v.rounds, phase: t(`dc.phase.${v.phase}`) })),
        turn && !v.finished ? h("p", { class: "dc-turn" }, turn) : null,
        teamStrip(v, ctx)),
      revealing ? roundReveal(v, ctx) : null,
      !revealing ? answersReveal(v, ctx) : null,
      question ? h("section", { class: "panel question-card", "aria-live": "polite", tabindex: "-1", "data-key": "question" },
        h("div", { class: "dc-q-head" },
          h("p", { class: "category" }, catName(question.category, question.name), " · ", t("dc.question_n", { n: v.questions.length, of: QUESTIONS })),
          h("span", { class: "dc-progress", "aria-hidden": "true" }, Array.from({ length: QUESTIONS }, (_, i) =>
            h("span", { class: i < v.questions.length - 1 ? "done" : i === v.questions.length - 1 ? "now" : "" })))),
        h("p", { class: "question" }, question.text)) : null,
      revealing ? null : keepPicker(v, ctx),
      placing ? extendPanel(ctx, placing, v.round <= 1) : null,
      plays.length ? panel(t("dc.play_title"), h("div", { class: "hand" }, plays.map((a) => h("button", { type: "button", class: "card", "data-card": a.card, "data-key": `play-${a.card}`, disabled: ctx.busy, onclick: () => ctx.act(a) }, cardFace(a.card))))) : null,
      others.length ? panel(t("dc.target_title"),
        // the card being played, with what it does (its actions are named after it)
        tOr(`dc.card.${others[0].type}`, "") ? h("p", { class: "dc-playing card", "data-card": others[0].type }, cardFace(others[0].type)) : null,
        h("div", { class: "actions dc-targets" }, others.map((a) => actButton(ctx, a, describeTarget(a, v, me), { key: JSON.stringify(a) })))) : null,
      h("div", { class: "dc-boards" },
        board(v, boards[0], ctx, me, shown, placing),
        board(v, boards[1], ctx, me, shown, null)),
      question && ctx.legal.length ? h("div", { class: "actions answer-bar" },
        h("button", { type: "button", class: "primary", "data-key": "answer", disabled: !answerAction || ctx.busy, onclick: () => { ctx.act(answerAction); } },
          pick !== undefined ? t("dc.lock", { year: pick }) : t("dc.pick_year")),
        // said at the game's first question; on a phone, later, the board needs the room
        h("span", { class: `muted dc-secret ${v.round <= 1 && v.questions.length <= 1 ? "" : "later"}` }, t("dc.secret"))) : null,
      waitingOther ? h("p", { class: "waiting-other" }, pendingYear !== undefined ? t("dc.waiting_pending", { year: pendingYear })
        : v.pending && v.pending.type === "extend" ? t("dc.waiting_tokens") : t("dc.waiting_other")) : null,
      scoreTrack(v, ctx),
      // while keeping, the picker above is the hand
      myTeam && !v.finished && !legalOfType(ctx.legal, "keep").length ? panel(t("dc.hand"), h("ul", { class: "hand" }, (v.hand || []).map((c) => h("li", { class: "card", "data-card": c }, cardFace(c)))),
        h("p", { class: "muted" }, t("dc.their_cards", { n: v.teams[1 - me].cards_left }))) : null,
      revealing ? null : lastRound(v, ctx),
    );
    moveFocus(ctx, placing);
    return table;
  },
  describe(e, ctx) {
    noteEvent(e, ctx);
    const who = nameOf(ctx, e.team);
    const pair = (f) => [0, 1].map((i) => f(i, nameOf(ctx, i)));
    switch (e.kind) {
      case "setup": return t("dc.log.setup", { rounds: t("dc.log.rounds", { count: e.rounds }), track: t("dc.early_win", { count: e.track }) });
      case "deal": return null;
      case "hand": return t("dc.log.hand", { cards: (e.cards || []).map(card).join(", ") });
      case "keep": return t("dc.log.keep_step", { count: e.dealt, dealt: e.dealt, keep: e.keep });
      case "ready": return t("dc.log.ready", { who, what: tOr(`dc.step.${e.step}`, e.step) });
      case "chosen": {
        // live, only the own team gets this event; a replay shows everyone's
        const c = e.choice || {};
        const params = { who, year: c.year, cards: (c.cards || []).map(card).join(", "), tokens: tokensText(c.tokens), card: card(c.card) };
        return ctx.replay ? t(`dc.log.chosen_by.${e.step}`, params) : t(`dc.log.chosen.${e.step}`, params);
      }
      case "kept": return t("dc.log.kept", { count: e.cards });
      case "round": return t("dc.log.round", { n: e.round, of: e.rounds });
      case "question": return t("dc.log.question", { cat: catName(e.category, e.name), text: e.text });
      case "answers": {
        const [a, b] = pair((i, name) => `${name} ${e.years[i]}`);
        return t("dc.log.answers", { cat: catName(e.category), a, b });
      }
      case "extend": return t("dc.log.extend", { n: e.round });
      case "boards": {
        const [a, b] = pair((i, name) => `${name}: ${tokensText(e.tokens[i])}`);
        return t("dc.log.boards", { a, b });
      }
      case "cards": {
        const [a, b] = pair((i, name) => t("dc.log.card_of", { who: name, card: card(e.cards[i]), note: tOr(`dc.note.${e.notes[i]}`, e.notes[i]) }));
        return t("dc.log.cards", { a, b });
      }
      case "score": {
        const [a, b] = pair((i, name) => t("dc.log.score_of", { who: name, answer: span(e.scores[i].low, e.scores[i].high), points: signed(e.scores[i].base + e.scores[i].bonus) }));
        return t("dc.log.score", { cat: catName(e.category), year: e.year, a, b });
      }
      case "target": return t("dc.log.target", { who, card: card(e.card), what: describeTarget(e.target, null, e.team) });
      case "end": {
        const [a, b] = pair((i, name) => t("dc.log.score_team", { who: name, n: e.scores[i] }));
        return t(e.early_win ? "dc.log.end_early" : "dc.log.end", { a, b });
      }
      default: return undefined;
    }
  },
};

/** A target in words: which of the other team's tokens or answers (by category name). */
function describeTarget(a, v, team) {
  const them = v && team !== null && team !== undefined ? v.teams[1 - team] : null;
  if (a.type === "remove-token") {
    const tok = them && (them.tokens || []).find((x) => x.length === a.length);
    return tok ? t("dc.remove_token_at", { n: a.length, from: tok.start, to: tok.start + tok.length - 1 }) : t("dc.remove_token", { n: a.length });
  }
  if (a.type === "cancel-answer") {
    const index = v ? (v.questions || []).findIndex((q) => q.category === a.category) : -1;
    const year = them && index >= 0 ? (them.answers || [])[index] : undefined;
    const cat = catName(a.category);
    return year !== undefined ? t("dc.cancel_answer_at", { cat, year }) : t("dc.cancel_answer", { cat });
  }
  return tOr(`dc.card.${a.type}`, String(a.type || ""));
}
