// Wurfeltod: six dice, the set-aside dice, the roll count, the 20-box score sheet with what
// each open box would score now and whether it would bring a Wurfeltod, every player's sheet.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { die, diceRow } from "../parts/dice.js";
import { actButton, findLegal, legalOfType, nameOf, sorted, toggle, panel } from "../parts/common.js";

// The sheet: 19 categories in order, Face Value Total twice (20 boxes).
const BOXES = ["any-pair", "two-pair", "1-1-1", "2-2-2", "3-3-3", "4-4-4", "5-5-5", "6-6-6", "sum-25", "four-of-a-kind",
  "three-pairs", "two-triplets", "four-and-pair", "five-of-a-kind", "five-straight", "sequential-pairs", "six-of-a-kind",
  "six-straight", "face-value", "face-value"];
const POINTS = { "any-pair": 50, "two-pair": 50, "1-1-1": 100, "2-2-2": 100, "3-3-3": 100, "4-4-4": 100, "5-5-5": 100,
  "6-6-6": 300, "sum-25": 500, "four-of-a-kind": 750, "three-pairs": 800, "two-triplets": 850, "four-and-pair": 900,
  "five-of-a-kind": 1000, "five-straight": 1000, "sequential-pairs": 1500, "six-of-a-kind": 2000, "six-straight": 2000 };
const PENALTY = 250;

const counts = (dice) => [1, 2, 3, 4, 5, 6].map((f) => dice.filter((d) => d === f).length);
const shape = (dice) => counts(dice);
const kind = (n) => [1, 2, 3, 4, 5, 6].map((f) => shape(Array(n).fill(f)));
function groups(...sizes) {
  const out = [];
  const rec = (used, left) => {
    if (!left.length) { out.push(shape(used.flatMap(([v, n]) => Array(n).fill(v)))); return; }
    for (let v = 1; v <= 6; v++) if (!used.some(([u]) => u === v)) rec([...used, [v, left[0]]], left.slice(1));
  };
  rec([], sizes);
  return out;
}
const SHAPES = {
  "any-pair": kind(2), "two-pair": groups(2, 2), "1-1-1": [shape([1, 1, 1])], "2-2-2": [shape([2, 2, 2])],
  "3-3-3": [shape([3, 3, 3])], "4-4-4": [shape([4, 4, 4])], "5-5-5": [shape([5, 5, 5])], "6-6-6": [shape([6, 6, 6])],
  "four-of-a-kind": kind(4), "three-pairs": groups(2, 2, 2), "two-triplets": groups(3, 3), "four-and-pair": groups(4, 2),
  "five-of-a-kind": kind(5), "five-straight": [shape([1, 2, 3, 4, 5]), shape([2, 3, 4, 5, 6])],
  "sequential-pairs": [1, 2, 3, 4].map((n) => shape([n, n, n + 1, n + 1, n + 2, n + 2])),
  "six-of-a-kind": kind(6), "six-straight": [shape([1, 2, 3, 4, 5, 6])],
};

/** What booking `category` would do with these dice: {points, wurfeltod, score} (rules W3/W4). */
export function evaluate(category, aside, finalRoll) {
  const all = counts([...aside, ...finalRoll]);
  const roll = counts(finalRoll);
  const total = [...aside, ...finalRoll].reduce((a, b) => a + b, 0);
  let shapes;
  if (category === "face-value") shapes = [all];
  else if (category === "sum-25") shapes = total >= 25 ? [all] : [];
  else shapes = SHAPES[category].filter((s) => s.every((need, i) => need <= all[i]));
  if (!shapes.length) return { points: 0, wurfeltod: true, score: -PENALTY };
  const included = Math.max(...shapes.map((s) => s.reduce((acc, need, i) => acc + Math.min(need, roll[i]), 0)));
  const points = category === "face-value" ? 10 * total : POINTS[category];
  const wurfeltod = included < finalRoll.length;
  return { points, wurfeltod, score: points - (wurfeltod ? PENALTY : 0) };
}

const label = (c) => t(`wt.cat.${c}`);

function boxCell(box) {
  if (!box) return "";
  if (box.scratch) return h("span", { class: "scratched", title: t("wt.scratched") }, "✗ 0");
  return h("span", { class: box.wurfeltod ? "wt-dead" : "" }, String(box.points), box.wurfeltod ? h("span", { class: "skull", title: t("wt.wurfeltod") }, " ☠") : null);
}

export default {
  render(ctx) {
    const v = ctx.view;
    const pick = (ctx.local.pick ||= new Set());
    const setAsides = legalOfType(ctx.legal, "set-aside");
    const canPick = setAsides.length > 0;
    const rolled = v.rolled || [];
    const aside = v.aside || [];
    const dice = rolled.map((face, i) =>
      die({ value: face, selected: pick.has(i), key: `die-${i}`, note: pick.has(i) ? t("wt.picked") : "",
        disabled: !canPick || ctx.busy,
        onToggle: canPick ? () => { toggle(pick, i); ctx.rerender(); } : undefined }));
    const mine = ctx.seat !== null && v.current === ctx.seat;
    const players = v.cards.map((_, i) => nameOf(ctx, i));
    // the sheet: one row per box; the current player's open boxes preview their booking
    const seenFace = { n: 0 };
    const rows = BOXES.map((cat, index) => {
      const cells = v.cards.map((card, p) => {
        const box = card.boxes[index];
        if (box || p !== v.current || !rolled.length) return boxCell(box);
        if (cat === "face-value" && index === 19 && !card.boxes[18]) return ""; // second box after the first
        const book = findLegal(ctx.legal, { type: "book", category: cat });
        const scratch = findLegal(ctx.legal, { type: "scratch", category: cat });
        const preview = evaluate(cat, aside, rolled);
        const text = `${preview.points}${preview.wurfeltod ? " ☠" : ""}`;
        if (!book && !scratch) return h("span", { class: "preview" }, text);
        return h("span", { class: "box-actions" },
          book ? actButton(ctx, book, text, { cls: `book ${preview.wurfeltod ? "dead" : "good"}`, key: `book-${cat}`,
            title: t("wt.book_title", { cat: label(cat), score: preview.score }) }) : null,
          scratch ? actButton(ctx, scratch, t("wt.scratch"), { cls: "small", key: `scratch-${cat}`, title: t("wt.scratch_title", { cat: label(cat) }) }) : null);
      });
      if (cat === "face-value") seenFace.n += 1;
      return { label: label(cat) + (cat === "face-value" ? ` ${seenFace.n}` : ""), cells };
    });
    rows.push({ label: t("wt.points"), cells: v.cards.map((c) => c.points), cls: "total" });
    rows.push({ label: t("wt.wurfeltods"), cells: v.cards.map((c) => c.wurfeltods) });
    rows.push({ label: t("wt.total"), cells: v.cards.map((c) => c.total), cls: "total" });
    const pickAction = { type: "set-aside", dice: sorted(pick) };
    return h("div", { class: "table wurfeltod" },
      h("p", { class: "status-line" }, v.finished ? t("wt.over") : t("wt.turn", { name: nameOf(ctx, v.current), turn: v.turn, turns: v.turns, roll: v.roll })),
      panel(t("wt.dice"),
        diceRow(t("wt.rolled"), dice, "big"),
        diceRow(t("wt.aside"), aside.length ? aside.map((f) => die({ value: f })) : [h("span", { class: "muted" }, t("wt.none"))]),
        mine && !v.finished
          ? h("div", { class: "actions" },
              canPick ? actButton(ctx, pickAction, pick.size ? t("wt.set_aside", { count: pick.size }) : t("wt.pick_first"), { primary: true, key: "set-aside" }) : null,
              h("span", { class: "muted" }, v.must_book ? t("wt.must_book") : canPick ? t("wt.pick_help") : ""))
          : null),
      h("div", { class: "sheet-wrap" }, sheetTable(rows, players, v.current, ctx.seat)),
    );
  },
  describe(e, ctx) {
    const who = nameOf(ctx, e.player);
    switch (e.kind) {
      case "roll": return t("wt.log.roll", { who, n: e.roll, dice: (e.dice || []).join(" ") });
      case "set-aside": return t("wt.log.aside", { who, dice: (e.dice || []).join(" ") });
      case "book": return e.wurfeltod ? t("wt.log.book_dead", { who, cat: label(e.category), points: e.points }) : t("wt.log.book", { who, cat: label(e.category), points: e.points });
      case "scratch": return t("wt.log.scratch", { who, cat: label(e.category) });
      case "turn": return t("wt.log.turn", { who, turn: e.turn });
      default: return undefined;
    }
  },
};

function sheetTable(rows, players, current, me) {
  return h("table", { class: "sheet" },
    h("caption", {}, t("wt.sheet")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, ""), players.map((n, i) => h("th", { scope: "col", class: `${i === current ? "current" : ""} ${i === me ? "me" : ""}` }, n)))),
    h("tbody", {}, rows.map((r) => h("tr", { class: r.cls || "" }, h("th", { scope: "row" }, r.label), r.cells.map((c, i) => h("td", { class: i === current ? "current" : "" }, c))))));
}
