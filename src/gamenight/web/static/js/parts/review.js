// The review panel (issue 42): a finished game's review (gamenight.core.review, from
// POST /api/review) beside the replay's steps. Per player: accuracy, inaccuracies,
// mistakes, blunders and luck; a graph of each player's expected final score (or chance
// to win) with dice moves drawn apart from decisions; the costly decisions as buttons:
// one jumps to that position and shows every option's value there (the hint table).
import { h } from "../dom.js";
import { t, formatChance, formatNumber } from "../i18n.js";
import { advicePanel, optionWords } from "./hint.js";

const SVG = "http://www.w3.org/2000/svg";

/** A measure's name in the page's language (its key; an unknown one as the server said). */
export function measureName(measure) {
  const said = t(`review.measure.${measure.key}`);
  return said === `review.measure.${measure.key}` ? measure.name : said;
}

/** A value (change=false) or a loss in a measure's unit. */
export function amount(value, measure, change = true) {
  if (value === null || value === undefined) return "–";
  if (measure.unit === "probability") {
    return change ? t("review.pp", { n: formatNumber(100 * value, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }) : formatChance(value, 1);
  }
  return formatNumber(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

function signed(value) {
  const text = formatNumber(value, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return value >= 0 ? `+${text}` : text;
}

function summary(review, names) {
  // players as columns (two to four fit a narrow column); a wider table scrolls in a
  // region the keyboard can reach (axe)
  const lucky = review.players.some((p) => p.luck !== null);
  const percent = (v) => (v === null ? "–" : `${formatNumber(v, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`);
  const rows = [
    [t("review.accuracy"), (p) => percent(p.accuracy)],
    [t("review.inaccuracies"), (p) => formatNumber(p.inaccuracies)],
    [t("review.mistakes"), (p) => formatNumber(p.mistakes)],
    [t("review.blunders"), (p) => formatNumber(p.blunders)],
    ...(lucky ? [[t("review.luck"), (p) => (p.luck === null ? "–" : signed(p.luck))]] : []),
  ];
  return h("div", { class: "advice-wrap", tabindex: "0", role: "region", "aria-label": t("review.summary") },
    h("table", { class: "advice-table review-summary" },
      h("caption", { class: "visually-hidden" }, t("review.summary")),
      h("thead", {}, h("tr", {}, h("td", {}), review.players.map((p) => h("th", { scope: "col" }, names[p.seat] || p.name)))),
      h("tbody", {}, rows.map(([label, cell]) => h("tr", {},
        h("th", { scope: "row" }, label),
        review.players.map((p) => h("td", { class: "value" }, cell(p))))))));
}

/** Each player's accuracy per stage (the Decathlon's events), when there are several. */
function stages(review, names) {
  const order = [];
  for (const p of review.players) for (const s of p.stages) if (!order.includes(s.stage)) order.push(s.stage);
  if (order.length < 2) return null;
  const cell = (p, stage) => {
    const found = p.stages.find((s) => s.stage === stage);
    return found && found.accuracy !== null ? `${formatNumber(found.accuracy, { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%` : "–";
  };
  return h("div", { class: "advice-wrap", tabindex: "0", role: "region", "aria-label": t("review.by_stage") },
    h("table", { class: "advice-table review-summary review-stages" },
      h("caption", {}, t("review.by_stage")),
      h("thead", {}, h("tr", {}, h("td", {}), review.players.map((p) => h("th", { scope: "col" }, names[p.seat] || p.name)))),
      h("tbody", {}, order.map((stage) => h("tr", {},
        h("th", { scope: "row" }, stage),
        review.players.map((p) => h("td", { class: "value" }, cell(p, stage))))))));
}

/** The graph: one line per player over the points, a dice move dashed, a decision solid. */
function graph(review, names) {
  const points = review.points || [];
  if (points.length < 2) return null;
  const width = 280;
  const height = 120;
  const values = points.flatMap((p) => p.values.filter((v) => v !== null));
  let low = review.graph === "win" ? 0 : Math.min(...values);
  let high = review.graph === "win" ? 1 : Math.max(...values);
  if (high - low < 1e-9) { low -= 1; high += 1; }
  const x = (i) => 4 + (i * (width - 8)) / (points.length - 1);
  const y = (v) => 4 + (height - 8) * (1 - (v - low) / (high - low));
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "review-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", review.graph === "win" ? t("review.graph_win") : t("review.graph_score"));
  for (let seat = 0; seat < review.seats; seat++) {
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1].values[seat];
      const b = points[i].values[seat];
      if (a === null || b === null || a === undefined || b === undefined) continue;
      const line = document.createElementNS(SVG, "line");
      line.setAttribute("x1", String(x(i - 1)));
      line.setAttribute("y1", String(y(a)));
      line.setAttribute("x2", String(x(i)));
      line.setAttribute("y2", String(y(b)));
      line.setAttribute("class", `seat-${seat % 4} ${points[i].kind === "decision" ? "decision" : "chance"}`);
      svg.append(line);
    }
  }
  const legend = h("ul", { class: "review-legend" },
    Array.from({ length: review.seats }, (_, seat) => h("li", {}, h("span", { class: `swatch seat-${seat % 4}`, "aria-hidden": "true" }), names[seat] || `#${seat + 1}`)),
    h("li", { class: "muted" }, t("review.legend")));
  return h("figure", { class: "review-figure" },
    h("figcaption", {}, review.graph === "win" ? t("review.graph_win") : t("review.graph_score")), svg, legend);
}

function verdictWord(verdict) {
  return verdict ? t(`review.verdict.${verdict}`) : "";
}

/** A costly decision in a line: the step, who, what was taken, the loss and its verdict. */
function decisionText(review, decision, names) {
  const judged = review.measures[review.judged];
  const taken = decision.options[decision.taken];
  return t("review.decision", {
    n: decision.at - 1,
    name: names[decision.seat] || `#${decision.seat + 1}`,
    taken: optionWords(taken),
    loss: amount(decision.loss[review.judged], judged),
  });
}

/** The options at one decision, as the hint table shows them (every measure a column),
 * and a line saying what was taken and what the best would have given. */
export function decisionDetail(review, decision, names) {
  // the judged measure leads (its best option is the one marked best), the others follow
  const order = [review.judged, ...review.measures.map((_, j) => j).filter((j) => j !== review.judged)];
  const advice = {
    objectives: order.map((j) => ({ name: measureName(review.measures[j]), unit: review.measures[j].unit, best: decision.best[j] ?? -1 })),
    options: decision.options.map((o) => ({ action: o.action, label: o.label, values: order.map((j) => o.values[j]) })),
  };
  const judged = review.measures[review.judged];
  const best = decision.best[review.judged];
  const taken = decision.options[decision.taken];
  const table = scrollable(advicePanel(advice, null), t("review.options"));
  const row = table.querySelectorAll(".advice-table tbody tr")[decision.taken];
  if (row) {
    row.classList.add("taken");
    row.querySelector("th")?.append(" ", h("span", { class: "tag taken-tag" }, t("review.taken")));
  }
  return h("div", { class: "review-detail", id: "review-detail" },
    h("h3", {}, t("review.at_step", { n: decision.at - 1, name: names[decision.seat] || `#${decision.seat + 1}` })),
    h("p", {}, t("review.took", {
      taken: optionWords(taken),
      best: optionWords(best === null || best === undefined ? taken : decision.options[best]),
      value: best === null || best === undefined ? "–" : amount(decision.options[best].values[review.judged], judged, false),
      loss: amount(decision.loss[review.judged], judged),
      measure: measureName(judged),
    })),
    table,
  );
}

/** The option table's scroll box, reachable by the keyboard (it may scroll sideways). */
function scrollable(panel, label) {
  for (const wrap of panel.querySelectorAll(".advice-wrap")) {
    wrap.setAttribute("tabindex", "0");
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", label);
  }
  return panel;
}

export function reviewPanel(review, { names, onJump, selected = null }) {
  const costly = review.decisions
    .map((d, i) => ({ d, i }))
    .filter(({ d }) => d.verdict);
  const notes = [];
  if (review.hindsight) notes.push(t("review.hindsight"));
  if (review.waiting) notes.push(review.waiting_failed ? t("review.waiting_failed") : t("review.waiting"));
  if (review.measures.some((m) => m.key === "turn")) notes.push(t("review.turn_only"));
  const judged = review.measures[review.judged];
  return h("section", { class: "panel review", id: "review", "aria-labelledby": "review-title" },
    h("h2", { id: "review-title" }, t("review.title")),
    notes.map((n) => h("p", { class: "muted" }, n)),
    h("p", { class: "muted" }, t("review.measured", { measure: measureName(judged) })),
    summary(review, names),
    stages(review, names),
    graph(review, names),
    h("h3", {}, t("review.costly")),
    costly.length
      ? h("ol", { class: "review-decisions" }, costly.map(({ d, i }) => h("li", {},
        h("button", {
          type: "button", class: `small review-jump verdict-${d.verdict}`, "data-decision": String(i),
          "aria-pressed": selected === i ? "true" : "false", onclick: () => onJump(i),
        }, h("span", { class: "tag" }, verdictWord(d.verdict)), " ", decisionText(review, d, names)))))
      : h("p", { class: "muted" }, t("review.none")),
    selected === null ? null : decisionDetail(review, review.decisions[selected], names),
  );
}
