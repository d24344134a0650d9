// Kniffel Dice Duel: red and black dice with keep toggles, rolls left, the plate of chips
// (which the dice can take now), the set-aside pile, each player's chips and total; solo.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { die, diceRow } from "../parts/dice.js";
import { sheet } from "../parts/sheet.js";
import { actButton, findLegal, legalOfType, nameOf, sorted, toggle, panel } from "../parts/common.js";

const COMBOS = ["two-pairs", "three-of-a-kind", "small-straight", "flush", "full-house", "four-of-a-kind", "large-straight"];
const VALUES = [5, 10, 20, 25, 30, 40, 50];
const combo = (c) => t(`dd.combo.${c}`);

function chipPile(title, counts, ctx, source, hideEmpty = false) {
  if (hideEmpty && !counts.some((n) => n > 0)) {
    return h("div", { class: "chips" }, h("h3", {}, title), h("p", { class: "muted" }, t("dd.pile_empty")));
  }
  const takes = legalOfType(ctx.legal, "take").filter((a) => a.source === source);
  const satisfied = new Set(ctx.view.satisfied || []);
  return h("div", { class: "chips" }, h("h3", {}, title),
    h("ul", { class: "chip-list" }, COMBOS.flatMap((c, i) => (hideEmpty && !counts[i] ? [] : [c])).map((c) => {
      const i = COMBOS.indexOf(c);
      const action = takes.find((a) => a.combination === c);
      const can = satisfied.has(c) && counts[i] > 0;
      return h("li", { class: `chip ${can ? "can" : ""} ${counts[i] ? "" : "empty"}` },
        h("span", { class: "chip-disc", "aria-hidden": "true" }, String(VALUES[i])),
        h("span", { class: "chip-name" }, combo(c)),
        h("span", { class: "chip-count" }, t("dd.count", { n: counts[i] })),
        can && source === "plate" && !action ? h("span", { class: "tag" }, t("dd.makes")) : null,
        action ? actButton(ctx, action, t("dd.take"), { primary: true, key: `take-${source}-${c}` }) : null);
    })));
}

export default {
  render(ctx) {
    const v = ctx.view;
    const keep = (ctx.local.keep ||= new Set((v.kept || []).flatMap((k, i) => (k ? [i] : []))));
    const rolls = legalOfType(ctx.legal, "roll");
    const canRoll = rolls.length > 0;
    const dice = (v.faces || []).map((face, i) =>
      die({
        value: face,
        style: (v.colours || [])[i] || "plain",
        selected: keep.has(i),
        key: `die-${i}`,
        note: keep.has(i) ? t("die.kept") : "",
        disabled: !canRoll || ctx.busy,
        onToggle: canRoll ? () => { toggle(keep, i); ctx.rerender(); } : undefined,
      }));
    const rollAction = { type: "roll", keep: sorted(keep) };
    const solo = v.mode === "solo";
    const players = Array.from({ length: v.players }, (_, i) => nameOf(ctx, i));
    const status = v.phase === "over"
      ? t("dd.over", { reason: v.end || "" })
      : t("dd.turn", { name: nameOf(ctx, v.current), round: v.round, rolls: t("dd.rolls_left", { count: v.rolls_left }) });
    return h("div", { class: "table dice-duel" },
      h("p", { class: "status-line" }, status),
      panel(t("dd.dice"),
        diceRow("", dice, "big"),
        h("p", { class: "muted" }, t("dd.legend")),
        (v.satisfied || []).length ? h("p", {}, t("dd.makes_list", { list: v.satisfied.map(combo).join(", ") })) : null,
        v.kniffel ? h("p", { class: "tag" }, t("dd.kniffel")) : null,
        h("div", { class: "actions" },
          canRoll ? actButton(ctx, rollAction, t("dd.roll", { count: 5 - keep.size }), { primary: !legalOfType(ctx.legal, "take").length, key: "roll" }) : null,
          findLegal(ctx.legal, { type: "stop" }) ? actButton(ctx, { type: "stop" }, t("dd.stop"), { key: "stop" }) : null,
          h("span", { class: "muted" }, t("dd.rolls_left", { count: v.rolls_left })))),
      h("div", { class: "two-col" },
        chipPile(t("dd.plate"), v.plate || [], ctx, "plate"),
        chipPile(t("dd.set_aside"), v.set_aside || [], ctx, "set-aside", true)),
      sheet({
        caption: solo ? t("dd.solo_sheet") : t("dd.sheet"),
        players,
        current: v.current,
        me: ctx.seat,
        rows: [
          ...COMBOS.map((c, i) => ({ label: `${combo(c)} (${VALUES[i]})`, cells: (v.chips || []).map((row) => row[i] || "") })),
          { label: t("dd.chip_points"), cells: (v.scores || []).map((s) => s.chip_points) },
          { label: t("dd.stacks"), cells: (v.scores || []).map((s) => s.full_stacks) },
          { label: t("dd.last_chip"), cells: (v.scores || []).map((s) => s.last_chip || "") },
          { label: t("dd.total"), cells: (v.scores || []).map((s) => s.total), cls: "total" },
        ],
      }),
    );
  },
  describe(e, ctx) {
    const who = nameOf(ctx, e.player);
    switch (e.kind) {
      case "roll": return t("dd.log.roll", { who, n: e.roll, dice: (e.dice || []).join(" ") });
      case "take": return t("dd.log.take", { who, combo: combo(e.combination), value: e.value, source: t(`dd.source.${e.source}`) });
      case "no-chip": return t("dd.log.nochip", { who });
      case "set-aside": return t("dd.log.setaside", { combo: combo(e.combination) });
      case "turn": return t("dd.log.turn", { who, round: e.round });
      case "start-player": return t("dd.log.start", { who });
      case "stop": return t("dd.log.stop", { who });
      case "game-over": return t("dd.log.over", { reason: e.reason || "" });
      default: return undefined;
    }
  },
};
