// Wurfeltod: six dice, the set-aside dice, the roll count, the 20-box score sheet with what
// each open box would score now and whether it would bring a Wurfeltod, every player's sheet.
import { h } from "../dom.js";
import { englishKey, t } from "../i18n.js";
import { die, diceRow, rollProgress } from "../parts/dice.js";
import { sheet } from "../parts/sheet.js";
import { describeActionsWith } from "../parts/hint.js";
import { actButton, findLegal, legalOfType, nameOf, sorted, toggle } from "../parts/common.js";

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
/** A box named in English (the advisor's sentences) in the page's words. */
function boxName(english) {
  const key = englishKey("wt.cat.", english);
  return key ? t(key) : english;
}
const signed = (n) => (n < 0 ? `−${-n}` : String(n));

/** A button whose accessible name is the full description (its text is the short form). */
// The advisor's words (games/wurfeltod/advisor.py: its columns and notes), which the server
// sends in English, as the hint panel says them (parts/hint.js, i18n.sayAgain).
const ADVICE_WORDS = [
  [/expected final score/, "wt.advice.expected"],
  [/vs best/, "wt.advice.vs_best"],
  [/points now/, "wt.advice.points_now"],
  [/Wurfeltod now/, "wt.advice.wurfeltod_now"],
  [/booked so far (?<booked>[\d,]+) plus the expected rest of the game under optimal solitaire play \(points minus 250 per Wurfeltod\)/, "wt.advice.expected_note"],
  [/No open box brings a Wurfeltod if booked now\./, "wt.advice.no_wurfeltod"],
  // the boxes come as their English names, joined by ", ": each said by its own key
  [/Booking now brings a Wurfeltod \(-250\) in: (?<boxes>.+)\./, ({ boxes }) =>
    t("wt.advice.brings", { boxes: boxes.split(", ").map(boxName).join(", ") })],
];

function named(button, text) {
  if (text) button.setAttribute("aria-label", text);
  if (text) button.title = text;
  return button;
}

/**
 * An action in words: the one text for the table's button (its accessible name) and the
 * hint panel's option (parts/hint.js asks for it), so both always say the same.
 */
export function describeAction(action, view) {
  if (!action) return null;
  const rolled = view.rolled || [];
  const aside = view.aside || [];
  if (action.type === "set-aside") {
    const dice = (action.dice || []).map((i) => rolled[i]).sort((a, b) => a - b);
    const rest = rolled.length - dice.length;
    return rest
      ? t("wt.act.set_aside", { dice: dice.join(" "), count: rest })
      : t("wt.act.set_aside_all", { dice: dice.join(" ") });
  }
  if (action.type === "book") {
    const preview = evaluate(action.category, aside, rolled);
    return t(preview.wurfeltod ? "wt.act.book_dead" : "wt.act.book", { cat: label(action.category), points: preview.points, score: signed(preview.score) });
  }
  if (action.type === "scratch") return t("wt.act.scratch", { cat: label(action.category) });
  return null;
}

function boxCell(box) {
  if (!box) return "";
  if (box.scratch) return h("span", { class: "scratched" }, h("span", { "aria-hidden": "true" }, "✗ "), "0", h("span", { class: "visually-hidden" }, ` (${t("wt.scratched")})`));
  return h("span", { class: box.wurfeltod ? "wt-dead" : "" }, String(box.points),
    box.wurfeltod ? h("span", { class: "skull", role: "img", "aria-label": t("wt.wurfeltod") }, " ☠") : null);
}

/**
 * The open boxes the player may book or scratch now, right under the dice (on a phone the
 * 20-row sheet is taller than the screen): each box's name, a button with what booking it
 * scores now (☠: a Wurfeltod) and ✗ to scratch it. The sheet below shows the same previews.
 */
function boxList(ctx, v, aside, rolled, say) {
  const card = v.cards[v.current];
  const items = [];
  BOXES.forEach((cat, index) => {
    if (card.boxes[index]) return;
    if (cat === "face-value" && index === 19 && !card.boxes[18]) return; // the second after the first
    const book = findLegal(ctx.legal, { type: "book", category: cat });
    const scratch = findLegal(ctx.legal, { type: "scratch", category: cat });
    if (!book && !scratch) return;
    const preview = evaluate(cat, aside, rolled);
    const text = `${preview.points}${preview.wurfeltod ? " ☠" : ""}`;
    const name = cat === "face-value" && index === 19 ? t("wt.face_box", { box: label(cat), n: 2 }) : label(cat);
    items.push(h("li", { class: `wt-box ${preview.wurfeltod ? "dead" : "good"}`, "data-box": cat },
      h("span", { class: "wt-box-name", "aria-hidden": "true" }, name),
      book ? named(actButton(ctx, book, text, { cls: `book ${preview.wurfeltod ? "dead" : "good"}`, key: `book-${cat}` }), say(book)) : null,
      scratch ? named(actButton(ctx, scratch, t("wt.scratch"), { cls: "scratch", key: `scratch-${cat}` }), say(scratch)) : null));
  });
  if (!items.length) return null;
  const scratching = (ctx.legal || []).some((a) => a.type === "scratch");
  return h("div", { class: "wt-boxes-wrap" },
    h("h4", { class: "wt-boxes-title" }, t(scratching ? "wt.boxes_title" : "wt.boxes_title_book")),
    h("ul", { class: "wt-boxes" }, items));
}

export default {
  render(ctx) {
    const v = ctx.view;
    const say = (a) => describeAction(a, v);
    describeActionsWith(say, ADVICE_WORDS);
    const pick = (ctx.local.pick ||= new Set());
    const setAsides = legalOfType(ctx.legal, "set-aside");
    const canPick = setAsides.length > 0;
    const rolled = v.rolled || [];
    const aside = v.aside || [];
    const throwId = rolled.length ? `${v.current}/${v.turn}/${v.roll}/${rolled.join("")}` : null;
    const rolling = rollProgress("wurfeltod", throwId);
    const dice = rolled.map((face, i) =>
      die({ value: face, selected: pick.has(i), key: `die-${i}`, note: pick.has(i) ? t("wt.picked") : "",
        fresh: !v.finished, rolling,
        disabled: !canPick || ctx.busy,
        onToggle: canPick ? () => { toggle(pick, i); ctx.rerender(); } : undefined }));
    const mine = ctx.myTurn;
    const players = v.cards.map((_, i) => nameOf(ctx, i));
    // the sheet: one row per box; the current player's open boxes preview their booking
    const seenFace = { n: 0 };
    const rows = BOXES.map((cat, index) => {
      const cells = v.cards.map((card, p) => {
        const box = card.boxes[index];
        if (box || p !== v.current || !rolled.length || v.finished) return boxCell(box);
        if (cat === "face-value" && index === 19 && !card.boxes[18]) return ""; // second box after the first
        const preview = evaluate(cat, aside, rolled);
        const text = `${preview.points}${preview.wurfeltod ? " ☠" : ""}`;
        // the sheet previews; the buttons are in the box list by the dice (boxList)
        return h("span", { class: `preview ${preview.wurfeltod ? "dead" : ""}` }, text);
      });
      if (cat === "face-value") seenFace.n += 1;
      const worth = cat === "face-value" ? t("wt.worth_face") : String(POINTS[cat]);
      return {
        key: cat === "face-value" ? `face-value-${seenFace.n}` : cat,
        label: h("span", { class: "cat" }, h("span", { class: "cat-name" }, cat === "face-value" ? t("wt.face_box", { box: label(cat), n: seenFace.n }) : label(cat)),
          h("span", { class: "cat-worth" }, worth)),
        cells,
      };
    });
    rows.push({ key: "points", label: t("wt.points"), cells: v.cards.map((c) => signed(c.points)), cls: "subtotal" });
    rows.push({ key: "wurfeltods", label: t("wt.wurfeltods"), cls: "bonus",
      cells: v.cards.map((c) => h("span", { class: c.wurfeltods ? "wt-dead" : "zero", "data-points": String(-PENALTY * c.wurfeltods) },
        c.wurfeltods ? [h("span", { class: "chip-n" }, t("wt.penalty", { n: c.wurfeltods })), signed(-PENALTY * c.wurfeltods)] : "0")) });
    rows.push({ key: "total", label: t("wt.total"), cells: v.cards.map((c) => signed(c.total)), cls: "total" });
    const boxes = mine && rolled.length && !v.finished ? boxList(ctx, v, aside, rolled, say) : null;
    const pickAction = { type: "set-aside", dice: sorted(pick) };
    const status = v.finished
      ? t("wt.over")
      : t(mine ? "wt.turn_mine" : "wt.turn", { name: nameOf(ctx, v.current), turn: v.turn, turns: v.turns, roll: v.roll });
    return h("div", { class: `table wurfeltod ${v.finished ? "over" : ""}` },
      h("h2", { class: `status-line ${mine ? "mine" : ""}` }, status),
      h("div", { class: "wt-board" },
      v.finished ? null : h("section", { class: "panel dice-panel" },
        h("h3", {}, t("wt.dice")),
        diceRow(t("wt.rolled"), dice, "big"),
        diceRow(t("wt.aside"), aside.length ? aside.map((f) => die({ value: f, note: t("wt.aside_note") })) : [h("span", { class: "muted" }, t("wt.none"))], "aside"),
        mine
          ? h("div", { class: "actions" },
              canPick ? actButton(ctx, pickAction, pick.size ? say(pickAction) : t("wt.pick_first"), { primary: true, key: "set-aside" }) : null,
              h("span", { class: "muted" }, v.must_book ? t("wt.must_book") : canPick ? t("wt.pick_help") : t("wt.book_help")))
          : null,
        boxes),
      sheet({ caption: t(v.finished ? "wt.sheet_final" : "wt.sheet"), players, rows, current: v.finished ? null : v.current, me: ctx.seat, cls: "wt-sheet" })),
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
      case "game-over": return t("wt.log.over", { scores: (e.totals || []).map((s, i) => `${nameOf(ctx, i)} ${signed(s)}`).join(", ") });
      default: return undefined;
    }
  },
};
