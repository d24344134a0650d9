// Kniffel Dice Duel: red and black dice with keep toggles, rolls left, the plate of chips
// (which the dice can take now, or a "take no chip" button to decline, K4), the set-aside
// pile, each player's chips and total; solo.
// The score sheet adds up on screen (K6): each combination's chip points, their sum, the
// gold or silver bonus, the full stacks and the last chip make the total below them.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { die, diceRow, rollProgress } from "../parts/dice.js";
import { sheet } from "../parts/sheet.js";
import { actButton, findLegal, legalOfType, nameOf, sorted, toggle, panel } from "../parts/common.js";
import { describeActionsWith } from "../parts/hint.js";

const COMBOS = ["two-pairs", "three-of-a-kind", "small-straight", "flush", "full-house", "four-of-a-kind", "large-straight"];
const VALUES = [5, 10, 20, 25, 30, 40, 50];
const ROLLS = 3; // K4: three rolls a turn
const combo = (c) => t(`dd.combo.${c}`);
// why the game ended, which the game writes in English (games/dice_duel/rules.py _finish;
// the terminal's list: terminal/dice_duel.py), in the page's language
const ENDS = { "the plate is empty": "dd.end.plate_empty", "the last chip on the plate was set aside": "dd.end.last_set_aside" };
const endText = (reason) => (Object.hasOwn(ENDS, reason || "") ? t(ENDS[reason]) : String(reason || ""));

function chipPile(title, counts, ctx, source, hideEmpty = false) {
  if (hideEmpty && !counts.some((n) => n > 0)) {
    return h("div", { class: "chips panel" }, h("h3", {}, title), h("p", { class: "muted" }, t("dd.pile_empty")));
  }
  const takes = legalOfType(ctx.legal, "take").filter((a) => a.source === source);
  const satisfied = new Set(ctx.view.satisfied || []);
  const over = ctx.view.phase === "over";
  return h("div", { class: "chips panel" }, h("h3", {}, title),
    h("ul", { class: "chip-list" }, COMBOS.flatMap((c, i) => (hideEmpty && !counts[i] ? [] : [c])).map((c) => {
      const i = COMBOS.indexOf(c);
      const action = takes.find((a) => a.combination === c);
      const can = !over && satisfied.has(c) && counts[i] > 0;
      return h("li", { class: `chip ${can ? "can" : ""} ${counts[i] ? "" : "empty"}`, "data-combo": c },
        h("span", { class: "chip-disc", "aria-hidden": "true" }, String(VALUES[i])),
        h("span", { class: "chip-name" }, combo(c)),
        h("span", { class: "chip-count" }, t("dd.chips_left", { count: counts[i] })),
        // "your dice": only while they are (the opponent's dice make nothing of ours); the
        // chip is taken with the buttons under the dice (takeButtons)
        can && (source === "plate" || action) && ctx.seat !== null && ctx.view.current === ctx.seat
          ? h("span", { class: "tag makes-tag" }, t("dd.makes")) : null);
    })));
}

// The chips the dice may take, as buttons right under the dice: in the piles' lists they
// sat up to eleven rows down, off a phone's screen (test_sweep: every control in reach).
function takeButtons(ctx) {
  const takes = legalOfType(ctx.legal, "take");
  if (!takes.length) return null;
  return h("div", { class: "actions dd-takes" }, takes.map((a) => {
    const i = COMBOS.indexOf(a.combination);
    const label = t(a.source === "plate" ? "dd.take_combo" : "dd.take_combo_aside", { combo: combo(a.combination) });
    return actButton(ctx, a, label, { primary: true, key: `take-${a.source}-${a.combination}`,
      title: t("dd.take_title", { combo: combo(a.combination), value: VALUES[i], count: VALUES[i] }) });
  }));
}

/** A sheet cell: a number the column adds up (data-points), muted when 0. */
function points(n, extra = null) {
  return h("span", { class: `pts ${n ? "" : "zero"}`, "data-points": String(n) }, extra, h("span", { class: "pts-n" }, String(n)));
}

function sheetRows(v) {
  const scores = v.scores || [];
  const chips = v.chips || [];
  const combos = COMBOS.map((c, i) => ({
    key: `combo-${c}`,
    label: t("dd.row.combo", { combo: combo(c), value: VALUES[i] }),
    cells: chips.map((row) => {
      const n = row[i] || 0;
      return n ? points(n * VALUES[i], h("span", { class: "chip-n" }, t("dd.chips_held", { n, value: VALUES[i] }))) : points(0);
    }),
  }));
  const row = (key, label, field, cls = "") => ({ key, label, cls, cells: scores.map((s) => points(s[field] || 0)) });
  return [
    ...combos,
    row("chip-points", t("dd.chip_points"), "chip_points", "subtotal"),
    row("gold", t("dd.gold"), "gold", "bonus"),
    row("silver", t("dd.silver"), "silver", "bonus"),
    row("stacks", t("dd.stacks"), "full_stacks", "bonus"),
    row("last-chip", t("dd.last_chip"), "last_chip", "bonus"),
    { key: "total", label: t("dd.total"), cls: "total", cells: scores.map((s) => points(s.total)) },
  ];
}

/** The pips of the rolls this turn: used ones filled, the rest open (the text says it too). */
function rollsLeft(v) {
  const used = v.phase === "roll" ? ROLLS - v.rolls_left : ROLLS;
  return h("span", { class: "rolls-left" },
    h("span", { class: "roll-pips", "aria-hidden": "true" },
      Array.from({ length: ROLLS }, (_, i) => h("span", { class: `roll-pip ${i < used ? "used" : ""}` }))),
    h("span", {}, t("dd.rolls_left", { count: v.phase === "roll" ? v.rolls_left : 0 })));
}

// The advisor's words (games/dice_duel/advisor.py: its column and its note), which the server
// sends in English, as the hint panel says them (parts/hint.js, i18n.sayAgain).
const ADVICE_WORDS = [
  [/expected chip value/, "dd.advice.objective"],
  [/this turn only, as the turn-optimal bot counts it: .*/, "dd.advice.note"],
];

/** An action in words, as the hint panel lists it (the advisor's label is English). */
export function describeAction(action, view) {
  if (!action) return null;
  const faces = view.faces || [];
  if (action.type === "roll") {
    const keep = action.keep || [];
    if (!keep.length) return t("dd.hint.roll_all");
    return t("dd.hint.keep", { count: keep.length, kept: keep.map((i) => faces[i]).join(" "), dice: keep.map((i) => i + 1).join(" ") });
  }
  if (action.type === "take") {
    return t(action.source === "set-aside" ? "dd.hint.take_aside" : "dd.hint.take", { combo: combo(action.combination) });
  }
  if (action.type === "stop") return (view.satisfied || []).length ? t("dd.decline") : t("dd.stop");
  return null;
}

export default {
  render(ctx) {
    const v = ctx.view;
    describeActionsWith((a) => describeAction(a, v), ADVICE_WORDS);
    const keep = (ctx.local.keep ||= new Set((v.kept || []).flatMap((k, i) => (k ? [i] : []))));
    const rolls = legalOfType(ctx.legal, "roll");
    const canRoll = rolls.length > 0 && !ctx.busy;
    const over = v.phase === "over";
    const faces = v.faces || [];
    // the dice not kept in the latest roll were just thrown (K4: kept ones stay)
    const throwId = faces.length ? `${v.current}/${v.round}/${v.rolls_used}/${faces.join("")}` : null;
    const rolling = rollProgress("dice-duel", throwId);
    const dice = faces.map((face, i) =>
      die({
        value: face,
        style: (v.colours || [])[i] || "plain",
        selected: !over && keep.has(i),
        key: `die-${i}`,
        note: !over && keep.has(i) ? t("die.kept") : "",
        fresh: !over && !(v.kept || [])[i],
        rolling,
        disabled: !canRoll,
        onToggle: rolls.length ? () => { toggle(keep, i); ctx.rerender(); } : undefined,
      }));
    const rollAction = { type: "roll", keep: sorted(keep) };
    const takes = legalOfType(ctx.legal, "take");
    const solo = v.mode === "solo";
    const players = Array.from({ length: v.players }, (_, i) => nameOf(ctx, i));
    const mine = ctx.myTurn;
    const status = over
      ? t("dd.over", { reason: endText(v.end) })
      : t(mine ? "dd.turn_mine" : "dd.turn", { name: nameOf(ctx, v.current), round: v.round, rolls: t("dd.rolls_left", { count: v.rolls_left }) });
    const help = !mine || over ? null : rolls.length ? t("dd.keep_help") : takes.length ? t("dd.take_help") : null;
    return h("div", { class: `table dice-duel ${over ? "over" : ""}` },
      h("h2", { class: `status-line ${mine ? "mine" : ""}`, "data-turn": over ? "" : String(v.current) }, status),
      h("section", { class: "panel dice-panel" },
        h("h3", {}, t("dd.dice")),
        diceRow("", dice, "big"),
        (v.satisfied || []).length && !over ? h("p", { class: "makes" }, t("dd.makes_list", { list: v.satisfied.map(combo).join(", ") })) : null,
        v.kniffel && !over ? h("p", { class: "tag kniffel" }, t("dd.kniffel")) : null,
        !over ? takeButtons(ctx) : null,
        !over ? h("div", { class: "actions" },
          rolls.length ? actButton(ctx, rollAction, keep.size < 5 ? t("dd.roll", { count: 5 - keep.size }) : t("dd.roll_none"),
            { primary: !takes.length, key: "roll" }) : null,
          // K4 revised: with a chip to take, stopping declines it; the button says so
          findLegal(ctx.legal, { type: "stop" })
            ? takes.length
              ? actButton(ctx, { type: "stop" }, t("dd.decline"), { key: "stop", title: t("dd.decline_title") })
              : actButton(ctx, { type: "stop" }, t("dd.stop"), { key: "stop" })
            : null,
          rollsLeft(v)) : null,
        // on a phone, the two teaching lines in the first two rounds; then the plates
        // below the dice need the room (test_sweep: every control in reach in German)
        help ? h("p", { class: `muted help-line ${v.round > 2 ? "later" : ""}` }, help) : null,
        h("p", { class: `muted legend ${v.round > 2 ? "later" : ""}` }, t("dd.legend"))),
      h("div", { class: `dd-board ${v.players > 3 ? "many" : ""}` },
        h("div", { class: "dd-piles" },
          chipPile(t("dd.plate"), v.plate || [], ctx, "plate"),
          chipPile(t("dd.set_aside"), v.set_aside || [], ctx, "set-aside", true)),
        sheet({
        caption: solo ? t("dd.solo_sheet") : t("dd.sheet"),
        players,
        current: over ? null : v.current,
        me: ctx.seat,
        cls: "dd-sheet",
        rows: sheetRows(v),
      })),
    );
  },
  describe(e, ctx) {
    const who = nameOf(ctx, e.player);
    switch (e.kind) {
      case "roll": return t("dd.log.roll", { who, n: e.roll, dice: (e.dice || []).join(" ") });
      case "take": return t("dd.log.take", { who, combo: combo(e.combination), value: e.value, source: t(`dd.source.${e.source}`) });
      case "no-chip": return t(e.reason === "declined" ? "dd.log.declined" : "dd.log.nochip", { who });
      case "set-aside": return t("dd.log.setaside", { combo: combo(e.combination) });
      case "turn": return t("dd.log.turn", { who, round: e.round });
      case "start-player": return t("dd.log.start", { who });
      case "stop": return t("dd.log.stop", { who });
      case "game-over": return t("dd.log.over", { reason: endText(e.reason) });
      default: return undefined;
    }
  },
};
