// The Decades: the 40-year board in decade rows (each team's side with its bonus years),
// the question card, the secret year choice (hidden until both teams chose), extension
// tokens, the action-card hand, the score track with the early-win line. Each team sees
// only what its view holds: its own hand and choice.
import { h, s } from "../dom.js";
import { t, tOr } from "../i18n.js";
import { actButton, findLegal, legalOfType, nameOf, panel } from "../parts/common.js";

const FIRST = 1980;
const card = (name) => tOr(`dc.card.${name}`, name);
const catName = (c) => tOr(`dc.cat.${c}`, c);

function tokenLabel(tok) {
  return t("dc.token", { length: tok.length, from: tok.start, to: tok.start + tok.length - 1 });
}

function board(v, team, ctx, me) {
  const info = v.teams[team];
  const bonus = new Map((info.bonuses || []).map(([y, p]) => [y, p]));
  const answers = info.answers || [];
  const tokens = info.tokens || [];
  const covered = new Map();
  for (const tok of tokens) for (let y = tok.start; y < tok.start + tok.length; y++) covered.set(y, tok.length);
  const pick = ctx.local.year;
  // our own secret year, waiting for the other team (only our own view holds it)
  const pending = team === me && v.pending && v.pending.type === "answer" ? v.pending.year : undefined;
  const canAnswer = team === me && legalOfType(ctx.legal, "answer").length > 0;
  const rows = [];
  for (let decade = 0; decade < 4; decade++) {
    const cells = [];
    for (let i = 0; i < 10; i++) {
      const year = FIRST + decade * 10 + i;
      const marks = answers.map((y, q) => (y === year ? h("span", { class: `mark team-${team}`, "data-team": team, "data-year": year, "data-q": q }, String(q + 1)) : null)).filter(Boolean);
      if (pending === year) marks.push(h("span", { class: `mark pending team-${team}`, "data-team": team, "data-year": year, "data-q": answers.length, title: t("dc.pending") }, String(answers.length + 1)));
      const content = [
        h("span", { class: "year" }, String(year).slice(2)),
        bonus.has(year) ? h("span", { class: "bonus", title: t("dc.bonus", { n: bonus.get(year) }) }, `+${bonus.get(year)}`) : null,
        marks.length ? h("span", { class: "marks" }, marks) : null,
      ];
      const cls = `cell ${bonus.has(year) ? "has-bonus" : ""} ${covered.has(year) ? `tok tok-${covered.get(year)}` : ""} ${pick === year && canAnswer ? "picked" : ""}`;
      const label = [String(year), bonus.has(year) ? t("dc.bonus", { n: bonus.get(year) }) : "",
        marks.length ? t("dc.answers_here", { list: marks.map((m) => m.textContent).join(", ") }) : "",
        covered.has(year) ? t("dc.covered") : ""].filter(Boolean).join(", ");
      const legal = canAnswer && findLegal(ctx.legal, { type: "answer", year });
      cells.push(legal
        ? h("button", { type: "button", class: cls, "data-key": `year-${year}`, "aria-pressed": pick === year ? "true" : "false", "aria-label": label,
            disabled: ctx.busy, onclick: () => { ctx.local.year = year; ctx.rerender(); } }, content)
        : h("div", { class: cls, role: "img", "aria-label": label }, content));
    }
    rows.push(h("div", { class: "decade", role: "group", "aria-label": t("dc.decade", { d: FIRST + decade * 10 }) }, cells));
  }
  return h("section", { class: `panel board team-${team} ${team === me ? "mine" : ""}` },
    h("h3", {}, t("dc.board", { name: nameOf(ctx, team), side: info.side }), team === me ? h("span", { class: "tag" }, t("seat.you")) : null),
    h("div", { class: "decades" }, rows),
    tokens.length ? h("p", { class: "muted" }, t("dc.tokens"), " ", tokens.map(tokenLabel).join("; ")) : null);
}

function scoreTrack(v, ctx) {
  const track = v.track;
  const scores = v.teams.map((tm) => tm.score);
  const low = Math.min(0, ...scores) - 5;
  const span = track - low;
  const x = (score) => 10 + ((Math.max(low, Math.min(track, score)) - low) / span) * 580;
  const svg = s("svg", { viewBox: "0 0 600 84", class: "track", role: "img", "aria-label": t("dc.track_label", { a: scores[0], b: scores[1], track }) },
    s("line", { x1: 10, y1: 37, x2: 590, y2: 37, class: "track-line" }),
    s("line", { x1: x(0), y1: 24, x2: x(0), y2: 50, class: "track-zero" }),
    s("line", { x1: x(track), y1: 12, x2: x(track), y2: 62, class: "track-win" }),
    s("text", { x: x(track) - 4, y: 82, "text-anchor": "end", class: "track-text" }, t("dc.early_win", { n: track })),
    ...scores.map((sc, i) => s("g", { class: `track-team team-${i}` },
      s("circle", { cx: x(sc), cy: i ? 46 : 28, r: 9 }),
      s("text", { x: Math.max(60, Math.min(540, x(sc))), y: i ? 70 : 16, "text-anchor": "middle", class: "track-text" }, `${nameOf(ctx, i)} ${sc}`))));
  return panel(t("dc.score_track"), svg);
}

function lastRound(v, ctx) {
  const round = v.log && v.log.length ? v.log[v.log.length - 1] : null;
  if (!round) return null;
  return panel(t("dc.round_result", { n: round.round }),
    h("table", { class: "sheet" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("dc.question")), h("th", { scope: "col" }, t("dc.year")),
        [0, 1].map((i) => h("th", { scope: "col" }, nameOf(ctx, i))))),
      h("tbody", {}, (round.categories || []).map((c) => h("tr", {},
        h("th", { scope: "row" }, c.text), h("td", {}, String(c.year)),
        (c.scores || []).map((sc) => h("td", { class: "nowrap" }, `${sc.answer} → ${sc.base + sc.bonus >= 0 ? "+" : ""}${sc.base + sc.bonus}`)))))));
}

function keepPicker(v, ctx) {
  const keeps = legalOfType(ctx.legal, "keep");
  if (!keeps.length) return null;
  const chosen = (ctx.local.keep ||= new Set());
  const need = keeps[0].cards.length;
  const names = [...chosen].map((i) => v.dealt[i]).sort();
  const action = keeps.find((a) => JSON.stringify([...a.cards].sort()) === JSON.stringify(names));
  return panel(t("dc.keep_title", { n: need }),
    h("div", { class: "hand" }, v.dealt.map((c, i) => h("button", { type: "button", class: `card ${chosen.has(i) ? "selected" : ""}`, "aria-pressed": chosen.has(i) ? "true" : "false", "data-key": `deal-${i}`,
      onclick: () => { if (chosen.has(i)) chosen.delete(i); else if (chosen.size < need) chosen.add(i); ctx.rerender(); } }, card(c)))),
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary", "data-key": "keep", disabled: !action || ctx.busy, onclick: () => ctx.act(action) }, t("dc.keep", { n: chosen.size, of: need }))));
}

function extendPicker(ctx) {
  const options = legalOfType(ctx.legal, "extend");
  if (!options.length) return null;
  const select = h("select", { id: "extend-select", "data-key": "extend-select" },
    options.map((a, i) => h("option", { value: String(i) }, a.tokens.length ? a.tokens.map(tokenLabel).join("; ") : t("dc.no_tokens"))));
  return panel(t("dc.extend_title"),
    h("p", { class: "muted" }, t("dc.extend_help")),
    h("label", { for: "extend-select" }, t("dc.extend_label")), select,
    h("div", { class: "actions" }, h("button", { type: "button", class: "primary", "data-key": "extend", disabled: ctx.busy, onclick: () => ctx.act(options[Number(select.value)]) }, t("dc.place"))));
}

export default {
  render(ctx) {
    const v = ctx.view;
    const me = ctx.seat;
    const myTeam = me === null ? null : v.teams[me];
    const question = v.phase === "answer" && v.questions.length ? v.questions[v.questions.length - 1] : null;
    const pick = ctx.local.year;
    const answerAction = pick !== undefined ? findLegal(ctx.legal, { type: "answer", year: pick }) : undefined;
    const waitingOther = myTeam && !myTeam.to_act && !v.finished;
    const pendingYear = v.pending && v.pending.type === "answer" ? v.pending.year : undefined;
    const plays = legalOfType(ctx.legal, "play");
    const others = (ctx.legal || []).filter((a) => !["keep", "answer", "extend", "play"].includes(a.type));
    const boards = me === 1 ? [1, 0] : [0, 1];
    return h("div", { class: "table decades" },
      h("p", { class: "status-line" }, v.finished ? t("dc.over") : t("dc.status", { round: v.round, rounds: v.rounds, phase: t(`dc.phase.${v.phase}`) })),
      question ? h("section", { class: "panel question-card", "aria-live": "polite" },
        h("p", { class: "category" }, question.name || catName(question.category)),
        h("p", { class: "question" }, question.text),
        h("p", { class: "muted" }, t("dc.question_n", { n: v.questions.length, of: 6 }))) : null,
      keepPicker(v, ctx),
      extendPicker(ctx),
      plays.length ? panel(t("dc.play_title"), h("div", { class: "hand" }, plays.map((a) => actButton(ctx, a, card(a.card), { cls: "card", key: `play-${a.card}` })))) : null,
      others.length ? panel(t("dc.target_title"), h("div", { class: "actions" }, others.map((a) => actButton(ctx, a, describeTarget(a), { key: JSON.stringify(a) })))) : null,
      board(v, boards[0], ctx, me),
      question && ctx.legal.length ? h("div", { class: "actions answer-bar" },
        h("button", { type: "button", class: "primary", "data-key": "answer", disabled: !answerAction || ctx.busy, onclick: () => { ctx.act(answerAction); } },
          pick !== undefined ? t("dc.lock", { year: pick }) : t("dc.pick_year")),
        h("span", { class: "muted" }, t("dc.secret"))) : null,
      waitingOther ? h("p", { class: "waiting-other" }, pendingYear !== undefined ? t("dc.waiting_pending", { year: pendingYear }) : t("dc.waiting_other")) : null,
      scoreTrack(v, ctx),
      board(v, boards[1], ctx, me),
      myTeam && !v.finished ? panel(t("dc.hand"), h("ul", { class: "hand" }, (v.hand || []).map((c) => h("li", { class: "card" }, card(c)))),
        h("p", { class: "muted" }, t("dc.their_cards", { n: v.teams[1 - me].cards_left }))) : null,
      lastRound(v, ctx),
    );
  },
  describe(e, ctx) {
    const who = nameOf(ctx, e.player);
    switch (e.kind) {
      case "setup": return t("dc.log.setup", { rounds: e.rounds, track: e.track });
      case "deal": return null;
      case "hand": return t("dc.log.hand");
      case "ready": return t("dc.log.ready", { who });
      case "chosen":
        if (!e.choice || e.choice.type !== "answer") return null;
        // live, only the own team gets this event; a replay shows everyone's
        return ctx.replay ? t("dc.log.chosen_by", { who, year: e.choice.year }) : t("dc.log.chosen", { year: e.choice.year });
      case "kept": return t("dc.log.kept", { n: e.cards });
      case "round": return t("dc.log.round", { n: e.round, of: e.rounds });
      case "question": return t("dc.log.question", { text: e.text });
      case "answers": return t("dc.log.answers", { a: `${nameOf(ctx, 0)} ${e.years[0]}`, b: `${nameOf(ctx, 1)} ${e.years[1]}` });
      case "extend": return t("dc.log.extend");
      case "boards": return null;
      case "cards": return t("dc.log.cards", { a: card(e.cards[0]), b: card(e.cards[1]) });
      case "score": return t("dc.log.score", { year: e.year, text: e.text, a: e.scores[0].base + e.scores[0].bonus, b: e.scores[1].base + e.scores[1].bonus });
      case "target": return t("dc.log.target", { who, what: describeTarget(e) });
      case "end": return t("dc.log.end", { a: e.scores[0], b: e.scores[1] });
      default: return undefined;
    }
  },
};

function describeTarget(a) {
  if (a.type === "remove-token") return t("dc.remove_token", { n: a.length });
  if (a.type === "cancel-answer") return t("dc.cancel_answer", { cat: catName(a.category) });
  return JSON.stringify(a);
}
