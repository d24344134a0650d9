// The table of any game without a renderer of its own (a plug-in's, say): the view's
// fields as a list, then the legal actions as buttons labelled by their tag and fields
// ("hold", "take box=sixes"). Everything is text from the server, never markup.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { actButton } from "../parts/common.js";

const TAGS = ["type", "kind"]; // actions' tag field, events' tag field

const show = (value) =>
  Array.isArray(value) ? value.map(show).join(", ") || "—"
  : value !== null && typeof value === "object" ? Object.entries(value).map(([k, v]) => `${k}=${show(v)}`).join(" ")
  : String(value);

export function label(action) {
  if (action === null || typeof action !== "object") return String(action);
  const tag = TAGS.find((k) => k in action);
  const fields = Object.entries(action).filter(([k]) => k !== tag).map(([k, v]) => `${k}=${show(v)}`);
  return [tag ? String(action[tag]) : null, ...fields].filter((x) => x !== null).join(" ");
}

export default {
  render(ctx) {
    const view = ctx.view && typeof ctx.view === "object" ? ctx.view : {};
    return h(
      "div",
      { class: "table generic" },
      h("dl", { class: "view-fields" }, Object.entries(view).flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, show(v))])),
      h("p", {}, t("generic.note")),
      h("div", { class: "actions" }, (ctx.legal || []).slice(0, 60).map((a) => actButton(ctx, a, label(a)))),
    );
  },
};
