// The fallback table for a game without its own renderer: its legal actions as buttons.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { actButton } from "../parts/common.js";

export default {
  render(ctx) {
    return h(
      "div",
      { class: "table generic" },
      h("p", {}, t("generic.note")),
      h("div", { class: "actions" }, (ctx.legal || []).slice(0, 60).map((a) => actButton(ctx, a, JSON.stringify(a)))),
    );
  },
};
