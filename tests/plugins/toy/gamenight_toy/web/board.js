// Toy Pig's own board: a plug-in's renderer, found through its entry point (the package's
// web/ folder) and served by gamenight as static/games/toy/board.js. It imports the front
// end's shared modules by their paths below static/ (../../js/...), which resolve in the
// page's own version of them, and its words from web/messages/<lang>.js ("toy." keys).
import { h } from "../../js/dom.js";
import { t } from "../../js/i18n.js";
import { actButton, findLegal, nameOf } from "../../js/parts/common.js";

const target = (ctx) => Number((ctx.room && ctx.room.options && ctx.room.options.target) || 10);

function scoreboard(ctx) {
  const v = ctx.view || {};
  const goal = target(ctx);
  return h("ol", { class: "toy-scores" }, (v.scores || []).map((score, seat) =>
    h("li", { class: seat === v.turn ? "toy-seat toy-turn" : "toy-seat", "data-seat": seat },
      h("span", { class: "toy-name" }, nameOf(ctx, seat)),
      " ",
      h("progress", { max: goal, value: Math.min(score, goal), "aria-label": t("toy.progress", { name: nameOf(ctx, seat), score, target: goal }) }),
      " ",
      h("span", { class: "toy-score" }, t("toy.points", { count: score })))));
}

export default {
  render(ctx) {
    const v = ctx.view || {};
    const whose = Number.isInteger(v.turn) ? nameOf(ctx, v.turn) : "";
    // "generic" too: the hook the shared room tests wait for on a toy table
    return h("div", { class: "table toy-board generic" },
      h("h2", { class: "toy-title" }, t("toy.title", { target: target(ctx) })),
      scoreboard(ctx),
      h("p", { class: "toy-pot" }, t("toy.pot", { name: whose, count: v.pot || 0 })),
      h("div", { class: "actions" },
        findLegal(ctx.legal || [], { type: "roll" }) || !(ctx.legal || []).length
          ? actButton(ctx, { type: "roll" }, t("toy.roll"), { primary: true }) : null,
        findLegal(ctx.legal || [], { type: "hold" }) ? actButton(ctx, { type: "hold" }, t("toy.hold")) : null));
  },

  describe(event, ctx) {
    const name = nameOf(ctx, event.player);
    if (event.kind === "roll") return t("toy.log.roll", { name, face: event.face });
    if (event.kind === "hold") return t("toy.log.hold", { name, count: event.points });
    if (event.kind === "bust") return t("toy.log.bust", { name });
    if (event.kind === "start") return t("toy.log.start", { count: event.players });
    return undefined;
  },
};
