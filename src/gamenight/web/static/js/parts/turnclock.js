// The clock of a turn-based room (issue 44; RoomInfo.clock, docs/protocol.md "Turn-based
// rooms"): the time the seat to act has left, every player's time bank and who is late;
// for the other players when someone is late, the two choices (keep waiting, let a bot
// make the move). Times count from the server's `now`, never this device's clock. Names
// are text, never markup.
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** 93784 -> "1 d 2 h"; 7500 -> "2 h 5 min"; 59 -> "1 min" (in the page's language): whole
 * minutes, rounded up, so that a clock never shows less time than it has. */
export function duration(seconds) {
  const minutes = Math.ceil(Math.max(0, seconds) / 60);
  const d = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d) return t("turn.dh", { d, h: hours });
  if (hours) return t("turn.hm", { h: hours, m });
  return t("turn.m", { m });
}

/** What a `late` frame's choice says, for the log and the bar. */
export function lateText(choice, names, me) {
  const name = names[choice.seat] || "?";
  const by = names[choice.by] || "?";
  if (choice.choice === "bot") return t("turn.chose_bot", { by, name });
  return me === choice.seat ? t("turn.chose_wait_mine", { by }) : t("turn.chose_wait", { by, name });
}

/**
 * turnClockPanel({clock, seat, names, busy, choose}) -> the bar's clock of a turn-based
 * room, or null. `choose("wait" | "bot")` sends the player's choice about a late seat.
 */
export function turnClockPanel({ clock, seat, names, busy, choose }) {
  if (!clock) return null;
  const acting = clock.seats.filter((c) => c.deadline !== null && c.deadline !== undefined);
  const lines = acting.map((c) => {
    const mine = c.seat === seat;
    const text = c.late
      ? mine ? t("turn.late_mine") : t("turn.late", { name: names[c.seat] || "?" })
      : mine ? t("turn.left_mine", { time: duration(c.deadline - clock.now) })
        : t("turn.left", { name: names[c.seat] || "?", time: duration(c.deadline - clock.now) });
    return h("span", { class: `turn-left ${c.late ? "late" : ""} ${mine ? "mine" : ""}`, "data-seat": c.seat, "data-late": c.late ? "true" : "false" }, text);
  });
  const banks = clock.seats.map((c) =>
    h("span", { class: "bank", "data-seat": c.seat }, t("turn.bank_of", { name: names[c.seat] || "?", time: duration(c.bank) })));
  const lateOthers = acting.filter((c) => c.late && c.seat !== seat);
  const meLate = acting.some((c) => c.late && c.seat === seat);
  const canChoose = seat !== null && seat !== undefined && lateOthers.length > 0 && !meLate;
  return h("div", { class: "turn-based", role: "group", "aria-label": t("turn.title") },
    h("p", { class: "turn-lines" }, ...lines),
    h("p", { class: "turn-banks muted" }, t("turn.bank"), " ", ...banks),
    clock.choice ? h("p", { class: "turn-choice", role: "note" }, lateText(clock.choice, names, seat)) : null,
    canChoose
      ? h("div", { class: "late-choice" },
          h("button", { type: "button", class: "late-wait", "data-key": "late-wait", disabled: busy, onclick: () => choose("wait") }, t("turn.wait")),
          h("button", { type: "button", class: "late-bot", "data-key": "late-bot", disabled: busy, onclick: () => choose("bot") }, t("turn.bot")))
      : null);
}
