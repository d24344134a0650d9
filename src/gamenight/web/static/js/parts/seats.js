// The seat list: names (as text), bots with their one-line descriptions, who is connected,
// whose turn it is.
import { h, isolate } from "../dom.js";
import { t } from "../i18n.js";

/**
 * A seat's label, the one everywhere on the page (seats, table, log, end): the player's
 * name (a bidi isolate: dom.js isolate), "Bot greedy" for a bot, "Open seat 2" for a seat
 * nobody has taken.
 */
export function seatName(seat, gameInfo) {
  if (!seat) return "";
  if (seat.name) return isolate(seat.name); // a bidi isolate in every sentence (dom.js)
  if (seat.kind === "bot") return t("seat.bot", { bot: seat.bot });
  return t("seat.open", { n: seat.seat + 1 });
}

/** Every seat's label, by seat number (ctx.names). */
export function seatNames(seats, gameInfo) {
  return (seats || []).map((s) => seatName(s, gameInfo));
}

export function seatList({ seats, me = null, toAct = [], gameInfo, extra }) {
  return h(
    "ul",
    { class: "seats", "aria-label": t("seats.title") },
    seats.map((seat) => {
      const turn = toAct.includes(seat.seat);
      const status =
        seat.kind === "bot"
          ? t("seat.status.bot")
          : seat.takeover
            ? t("seat.status.takeover")
            : !seat.claimed
              ? t("seat.status.open")
              : seat.connected
                ? t("seat.status.online")
                : t("seat.status.away");
      return h(
        "li",
        { class: `seat ${turn ? "turn" : ""} ${seat.seat === me ? "me" : ""}` },
        h("span", { class: `dot ${seat.kind === "bot" || seat.connected ? "on" : "off"}`, "aria-hidden": "true" }),
        // the element itself is the name's isolate (dir="auto"), so it holds the name alone
        h("span", { class: "seat-name", dir: seat.name ? "auto" : null }, seat.name || seatName(seat, gameInfo)),
        seat.seat === me ? h("span", { class: "tag" }, t("seat.you")) : null,
        turn ? h("span", { class: "tag turn-tag" }, t("seat.turn")) : null,
        seat.takeover ? h("span", { class: "tag" }, t("seat.tag.takeover")) : null,
        seat.stand_in ? h("span", { class: "tag stand-in" }, t("seat.tag.stand_in", { bot: seat.stand_in })) : null,
        seat.kind === "human" && seat.claimed && !seat.connected && !seat.takeover ? h("span", { class: "tag" }, t("seat.status.away")) : null,
        h("span", { class: "visually-hidden" }, ", " + status),
        seat.kind === "bot" && gameInfo ? botSummary(gameInfo, seat.bot) : null,
        extra ? extra(seat) : null,
      );
    }),
  );
}

function botSummary(gameInfo, name) {
  const bot = (gameInfo.bots || []).find((b) => b.name === name);
  return bot ? h("span", { class: "muted seat-bot" }, bot.summary) : null;
}
