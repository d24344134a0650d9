// Reiner Knizia's Decathlon: the dice of the current attempt with freeze toggles, the event
// panel (rule, attempts, rethrows, run-up total, height), the score sheet for everyone, the
// running standings and, in the Championship, the medals; in a room with odds on, the bar of
// every player's live chance to win above the sheet and standings.
import { h } from "../dom.js";
import { t, sayAgain } from "../i18n.js";
import { die, diceRow, rollProgress } from "../parts/dice.js";
import { sheet } from "../parts/sheet.js";
import { oddsBar } from "../parts/odds.js";
import { describeActionsWith } from "../parts/hint.js";
import { actButton, findLegal, legalOfType, nameOf, sorted, toggle, panel } from "../parts/common.js";

const ev = (name) => t(`dec.event.${name}`);
const MEDALS = { 3: "gold", 2: "silver", 1: "bronze" };
const PLACE = { gold: 1, silver: 2, bronze: 3 };

function medal(kind) {
  // a coloured disc with the place in it: the number carries the meaning, not the colour
  return h("span", { class: `medal ${kind}`, role: "img", "aria-label": t(`dec.medal.${kind}`), title: t(`dec.medal.${kind}`) }, String(PLACE[kind]));
}
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
// the set events (D4, D5); in the sprints every six counts −6 (D4), in the hurdles +6 (D5)
const SETS = { "100m": true, "400m": true, "1500m": true, "110m-hurdles": false };
const dieValue = (d, minusSix) => (minusSix && d === 6 ? -6 : d);
const setValue = (dice, minusSix) => sum(dice.map((d) => dieValue(d, minusSix)));

/** "3 + 5 − 6 = 2": a set's dice as a sum (sixes as − 6 in the sprints). */
export function sumText(dice, minusSix) {
  if (!dice.length) return "";
  const terms = dice.map((d, i) => {
    const value = dieValue(d, minusSix);
    if (i === 0) return value < 0 ? `−${-value}` : String(value);
    return value < 0 ? `− ${-value}` : `+ ${value}`;
  });
  const total = setValue(dice, minusSix);
  return dice.length === 1 ? `= ${terms[0]}` : `${terms.join(" ")} = ${total < 0 ? `−${-total}` : total}`;
}
const signed = (n) => (n < 0 ? `−${-n}` : String(n));

// A pole vaulter's count of dice, chosen with the jump in one step (D9): the game asks
// for it only after the Jump is committed, so the chosen count waits here until the
// server's next view asks for it (same event, height, vaulter and jump).
let pendingVault = null;
const vaultKey = (v) => `${v.discipline_no}/${v.height}/${v.to_act}/${v.jumps_at_height}`;

function eventPanel(v) {
  const facts = [];
  if (v.attempts) facts.push(t("dec.attempt", { n: v.attempt, of: v.attempts }));
  if (v.rethrows_left !== null && v.rethrows_left !== undefined) facts.push(t("dec.rethrows", { count: v.rethrows_left }));
  if (v.set_no) facts.push(t("dec.set", { n: v.set_no, of: v.sets }));
  if (v.run_up && v.run_up.length) facts.push(t("dec.run_up", { total: sum(v.run_up) }));
  if (v.discipline in SETS) {
    const minusSix = SETS[v.discipline];
    const frozen = setValue((v.frozen_sets || []).flat(), minusSix);
    facts.push(t("dec.running", { total: signed(frozen) }));
    if ((v.thrown || []).length) facts.push(t("dec.with_set", { total: signed(frozen + setValue(v.thrown, minusSix)) }));
  }
  if (v.height !== null && v.height !== undefined) facts.push(t("dec.height", { height: v.height }));
  if (v.jumps_at_height !== null && v.jumps_at_height !== undefined && v.height !== null) facts.push(t("dec.jumps", { count: v.jumps_at_height }));
  return h("section", { class: "panel event-panel" },
    h("h3", {}, v.discipline ? t("dec.event_title", { name: ev(v.discipline), n: v.discipline_no + 1, of: v.disciplines.length }) : t("dec.over")),
    v.discipline ? h("p", { class: "rule" }, t(`dec.rule.${v.discipline}`)) : null,
    facts.length ? h("ul", { class: "facts" }, facts.map((f) => h("li", {}, f))) : null);
}

// The reasons of a foul (invalid) and of a miss, which the game writes in English in its
// events (games/decathlon: long_jump.py, shot_put.py, throws.py, heights.py), said again in
// the page's language (the terminal's list: terminal/decathlon.py _REASONS). A miss joins
// its faults with " and "; a form nobody knows stays as the game wrote it.
const REASON_WORDS = [
  [/total (?<total>\d+) < (?<height>\d+)/, "dec.reason.short"],
  [/a 1 shows \(total (?<total>\d+)\)/, "dec.reason.one_total"],
  [/a 1 shows/, "dec.reason.one"],
  [/die (?<n>\d+) shows a 1/, "dec.reason.die_one"],
  [/stepped over: the frozen run-up dice total (?<total>\d+), more than (?<limit>\d+)/, "dec.reason.frozen_over"],
  [/stepped over: even the lowest die just thrown takes the run-up to (?<total>\d+), more than (?<limit>\d+)/, "dec.reason.lowest_over"],
  [/no even die among (?<dice>[\d, ]+): nothing may be frozen/, "dec.reason.no_even"],
  [/no odd die among (?<dice>[\d, ]+): nothing may be frozen/, "dec.reason.no_odd"],
];

/** A foul's or a miss's reason in the page's language ("" for none). */
export function reasonText(reason) {
  const parts = String(reason || "").split(" and ").filter(Boolean).map((part) => sayAgain(part, REASON_WORDS, 1));
  return parts.reduce((a, b) => t("dec.reason.and", { a, b }));
}

// The advisor's words (games/decathlon/advisor.py: its columns, notes and goals), which the
// server sends in English, as the hint panel says them (parts/hint.js, i18n.sayAgain).
const ADVICE_WORDS = [
  [/expected result/, "dec.advice.expected"],
  [/the expected result/, "dec.advice.the_expected"],
  [/P\(result ≥ (?<n>\d+)\)/, "dec.advice.at_least"],
  [/E\[honours\]/, "dec.advice.honours"],
  [/honours/, "dec.advice.unit_honours"],
  [/against the results posted so far/, "dec.advice.posted"],
  [/the result that ties (?<name>.+)'s total/, "dec.advice.ties"],
  [/(?<name>.+)'s best result so far/, "dec.advice.best_so_far"],
  [/optimal plays for the expected result; competitive for (?<goal>.+)/, "dec.advice.note"],
];

/** An action in words, as the hint panel lists it (the buttons' own words where a button
 * does the same: "Freeze this set", "Rethrow", "Jump with 4 dice"). */
export function describeAction(action, view) {
  if (!action) return null;
  if (action.type === "freeze") {
    if (view.phase === "keep-or-rethrow" || SETS[view.discipline] !== undefined) return t("dec.keep_set");
    const thrown = view.thrown || [];
    const dice = action.dice || [];
    return t("dec.hint.freeze", { count: dice.length, dice: dice.map((i) => i + 1).join(" "),
      faces: dice.map((i) => thrown[i]).join(" ") });
  }
  if (action.type === "vault") return t("dec.vault_go", { count: action.dice });
  if (["rethrow", "throw", "jump", "stop", "skip", "retire"].includes(action.type)) return t(`dec.act.${action.type}`);
  return null;
}

export default {
  render(ctx) {
    const v = ctx.view;
    describeActionsWith((a) => describeAction(a, v), ADVICE_WORDS);
    const pick = (ctx.local.pick ||= new Set());
    const freezes = legalOfType(ctx.legal, "freeze");
    const freezable = new Set(v.freezable && v.freezable.length ? v.freezable : (v.thrown || []).map((_, i) => i));
    // sets (100 m, 400 m, ...): the only freeze is the whole set
    const wholeSet = freezes.length === 1 && freezes[0].dice.length === (v.thrown || []).length;
    const toggles = freezes.length > 0 && !wholeSet;
    const minusSix = SETS[v.discipline] === true;
    const sixNote = (f) => (minusSix && f === 6 ? t("dec.minus_six") : "");
    const thrownId = (v.thrown || []).length
      ? `${v.to_act}/${v.discipline_no}/${v.attempt}/${v.phase}/${v.set_no}/${v.rethrows_left}/${(v.frozen || []).length}/${(v.run_up || []).length}/${v.thrown.join("")}`
      : null;
    const rolling = rollProgress("decathlon", thrownId);
    const thrown = (v.thrown || []).map((face, i) =>
      die({ value: face, selected: pick.has(i), key: `die-${i}`, cls: sixNote(face) ? "minus-six" : "",
        note: [pick.has(i) ? t("dec.to_freeze") : "", sixNote(face)].filter(Boolean).join(", "),
        fresh: true, rolling,
        disabled: !toggles || !freezable.has(i) || ctx.busy,
        onToggle: toggles ? () => { toggle(pick, i); ctx.rerender(); } : undefined }));
    const frozenSets = v.frozen_sets && v.frozen_sets.length ? v.frozen_sets : v.frozen && v.frozen.length ? [v.frozen] : [];
    const buttons = [];
    if (wholeSet) buttons.push(actButton(ctx, freezes[0], t("dec.keep_set"), { primary: true, key: "freeze-set" }));
    else if (toggles) buttons.push(actButton(ctx, { type: "freeze", dice: sorted(pick) }, pick.size ? t("dec.freeze", { count: pick.size }) : t("dec.pick_to_freeze"), { primary: true, key: "freeze" }));
    const poleVault = v.discipline === "pole-vault";
    let vaultChooser = null;
    if (poleVault && v.phase === "jump-or-skip" && findLegal(ctx.legal, { type: "jump" })) {
      // D9: choose the dice and jump in one step; until then Skip and Retire stay open
      const n = ctx.local.vaultDice ?? null;
      vaultChooser = h("div", { class: "vault-choice", role: "group", "aria-labelledby": "vault-label" },
        h("span", { id: "vault-label", class: "vault-label" }, t("dec.vault_label")),
        h("div", { class: "vault-counts" }, Array.from({ length: 8 }, (_, i) => i + 1).map((k) =>
          h("button", { type: "button", class: `count ${n === k ? "selected" : ""}`, "aria-pressed": n === k ? "true" : "false",
            "data-key": `vault-n-${k}`, disabled: ctx.busy,
            onclick: () => { ctx.local.vaultDice = n === k ? null : k; ctx.rerender(); } }, String(k)))));
      buttons.push(h("button", { type: "button", class: "primary", "data-key": "vault-go", disabled: !n || ctx.busy,
        onclick: () => {
          pendingVault = { key: vaultKey(v), dice: n };
          ctx.act({ type: "jump" });
        } }, n ? t("dec.vault_go", { count: n }) : t("dec.vault_pick")));
    }
    for (const type of ["rethrow", "throw", "jump", "stop", "skip", "retire"]) {
      if (type === "jump" && vaultChooser) continue;
      const a = findLegal(ctx.legal, { type });
      if (a) buttons.push(actButton(ctx, a, t(`dec.act.${type}`), { key: type, primary: !buttons.length }));
    }
    let vaults = legalOfType(ctx.legal, "vault");
    let vaulting = null;
    if (vaults.length && pendingVault && pendingVault.key === vaultKey(v)) {
      // the jump is committed: throw the dice chosen with it
      const dice = pendingVault.dice;
      vaulting = h("p", { class: "muted", role: "status" }, t("dec.vaulting", { count: dice }));
      vaults = [];
      if (!ctx.busy && findLegal(ctx.legal, { type: "vault", dice })) {
        pendingVault = null;
        setTimeout(() => ctx.act({ type: "vault", dice }), 0);
      }
    }
    const players = Array.from({ length: v.players }, (_, i) => nameOf(ctx, i));
    const championship = v.variant === "championship";
    const sheetRows = v.disciplines.map((name, i) => {
      const row = v.sheet[i];
      return {
        label: ev(name),
        cls: i === v.discipline_no ? "current-row" : "",
        cells: players.map((_, p) => {
          if (row) {
            const result = row[p];
            const kind = championship && v.honours[i] ? MEDALS[v.honours[i][p]] : "";
            return h("span", {}, result === null ? "–" : signed(result), kind ? medal(kind) : null);
          }
          if (i === v.discipline_no && v.best && v.best[p] !== null && v.best[p] !== undefined) return `(${signed(v.best[p])})`;
          return "";
        }),
      };
    });
    sheetRows.push({ label: t("dec.total"), cls: "total", cells: v.totals.map(signed) });
    if (championship) sheetRows.push({ label: t("dec.honours"), cls: "total", cells: v.honour_totals });
    const key = championship ? v.honour_totals : v.totals;
    const standings = players.map((n, p) => ({ n, p, k: key[p] ?? 0, pts: v.totals[p] ?? 0 })).sort((a, b) => b.k - a.k || b.pts - a.pts);
    const acting = v.to_act;
    return h("div", { class: "table decathlon" },
      h("h2", { class: `status-line ${ctx.myTurn ? "mine" : ""}` }, acting !== null && acting !== undefined
        ? t(ctx.myTurn ? "dec.turn_mine" : "dec.turn", { name: nameOf(ctx, acting), event: v.discipline ? ev(v.discipline) : "" })
        : t("dec.over")),
      v.discipline ? eventPanel(v) : null,
      !v.discipline ? null : h("section", { class: "panel dice-panel" }, h("h3", {}, t("dec.dice")),
        // sets of one die each (the 1500 m: eight of them) share one row, not a row apiece
        frozenSets.length > 1 && frozenSets.every((set) => set.length === 1)
          ? diceRow(t("dec.frozen_singles", { count: frozenSets.length }), frozenSets.map(([f], i) => die({ value: f, cls: sixNote(f) ? "minus-six" : "",
            note: [t("dec.frozen_note"), t("dec.frozen_set", { n: i + 1 }), sixNote(f)].filter(Boolean).join(", ") })), "frozen singles",
            h("span", { class: "set-sum" }, sumText(frozenSets.flat(), minusSix)))
          : frozenSets.map((set, i) => diceRow(v.discipline in SETS ? t("dec.frozen_set", { n: i + 1 }) : t("dec.frozen_all"),
          set.map((f) => die({ value: f, cls: sixNote(f) ? "minus-six" : "", note: [t("dec.frozen_note"), sixNote(f)].filter(Boolean).join(", ") })), "frozen",
          v.discipline in SETS ? h("span", { class: "set-sum" }, sumText(set, minusSix)) : null)),
        v.shot && v.shot.length ? diceRow(t("dec.shot"), v.shot.map((f, i) => die({ value: f, fresh: i === v.shot.length - 1,
          rolling: i === v.shot.length - 1 ? rollProgress("decathlon-shot", `${v.discipline_no}/${v.attempt}/${v.to_act}/${v.shot.join("")}`) : null }))) : null,
        v.last_jump && v.last_jump.length ? diceRow(t("dec.last_jump"), v.last_jump.map((f) => die({ value: f, fresh: true,
          rolling: rollProgress("decathlon-jump", `${v.discipline_no}/${v.height}/${v.last_jump.join("")}`) }))) : null,
        thrown.length ? diceRow(t("dec.thrown"), thrown, "big", v.discipline in SETS ? h("span", { class: "set-sum" }, sumText(v.thrown, minusSix)) : null) : null,
        vaultChooser,
        vaulting,
        buttons.length || vaults.length ? h("div", { class: "actions" }, buttons,
          vaults.length ? h("div", { class: "vaults", role: "group", "aria-labelledby": "vault-now-label" },
            h("span", { id: "vault-now-label" }, t("dec.vault_label")), vaults.map((a) => actButton(ctx, a, String(a.dice), { key: `vault-${a.dice}`, cls: "count" }))) : null) : null,
        toggles ? h("p", { class: "muted" }, t("dec.freeze_help")) : null),
      v.marks && v.marks.length ? panel(t("dec.marks"), h("ul", { class: "marks" }, v.marks.map((m, p) =>
        h("li", {}, h("b", { class: "mark-name" }, players[p]), ` (${t(`dec.status.${v.status[p] || "in"}`)}): `, m.map(([height, mark]) => `${height} ${mark}`).join(", ") || "–")))) : null,
      ctx.odds ? oddsBar({ odds: ctx.odds.odds, seq: ctx.odds.seq, names: players, me: ctx.seat }) : null,
      h("div", { class: "two-col" },
        sheet({ caption: t("dec.sheet"), players, rows: sheetRows, current: acting, me: ctx.seat }),
        panel(t("dec.standings"), h("ol", { class: "standings" }, standings.map((s) =>
          h("li", { class: s.p === ctx.seat ? "me" : "" }, h("span", { class: "standing-name" }, s.n), h("span", { class: "rank-score" }, championship
            ? t("dec.standing_honours", { honours: t("dec.honours_n", { count: s.k }), points: t("dec.standing_points", { count: s.pts, pts: signed(s.pts) }) })
            : t("dec.standing_points", { count: s.pts, pts: signed(s.pts) }))))))),
    );
  },
  describe(e, ctx) {
    const who = nameOf(ctx, e.player);
    switch (e.kind) {
      case "starting-order": return t("dec.log.order", { list: (e.order || []).map((p) => nameOf(ctx, p)).join(", ") });
      case "roll": return t("dec.log.roll", { who, dice: (e.dice || []).join(" ") });
      case "freeze": return e.auto ? null : t("dec.log.freeze", { who, dice: (e.dice || []).join(" ") });
      case "result": return e.result === null || e.result === undefined ? t("dec.log.invalid_result", { who }) : t("dec.log.result", { who, result: e.result, best: e.best ?? "–" });
      case "invalid": return t("dec.log.invalid", { who, reason: reasonText(e.reason) });
      case "turn": return t("dec.log.turn", { who, event: ev(e.discipline), n: e.attempt, of: e.attempts });
      case "discipline-start": return t("dec.log.event_start", { event: ev(e.discipline) });
      case "discipline-end": return t("dec.log.event_end", { event: ev(e.discipline), results: (e.results || []).map((r, i) => `${nameOf(ctx, i)} ${r ?? "–"}`).join(", ") });
      case "bar": return t("dec.log.bar", { height: e.height });
      case "clear": return t("dec.log.clear", { who, height: e.height, total: e.total });
      case "fail": case "miss": return e.reason
        ? t("dec.log.miss_why", { who, height: e.height ?? "", reason: reasonText(e.reason) })
        : t("dec.log.miss", { who, height: e.height ?? "" });
      case "out": return t("dec.log.out", { who, height: e.height, best: e.best ?? "–" });
      case "skip": return t("dec.log.skip", { who, height: e.height });
      case "retire": return t("dec.log.retire", { who, height: e.height });
      case "jump": return t("dec.log.jump", { who });
      case "game-over": return t("dec.log.over", { scores: (e.scores || []).map((s, i) => `${nameOf(ctx, i)} ${s}`).join(", ") });
      default: return undefined;
    }
  },
};
