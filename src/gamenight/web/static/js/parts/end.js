// The end of a game: ranks, the revealed seed with its fairness check, the record,
// a replay link and "play again" with the same seats.
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { api } from "../api.js";
import { fairCheck } from "./fair.js";

const records = new Map(); // room code -> the record's text (fetched once per page)

function record(code) {
  if (!records.has(code)) records.set(code, api.record(code));
  return records.get(code);
}

// noted: the commitment as this browser first saw it; mine: {seat, value} of the
// contribution it sent (parts/fair.js checks the record against both); againBusy: a
// rematch is on its way (its button waits: a double tap makes one room)
export function endPanel({ room, names, onAgain, againBusy = false, noted, mine }) {
  const results = room.results;
  const heading = room.status === "closed" ? t("end.closed") : room.status === "broken" ? t("end.broken") : t("end.title");
  const wrap = h("div", { class: "end" }, h("h2", {}, heading));
  // a room the server cannot rebuild: its notes say why (the record is offered only
  // for a finished game, below)
  if (room.status === "broken" && room.notes?.length) wrap.append(h("p", { class: "broken-reason" }, room.notes[room.notes.length - 1]));
  if (results && results.ranks) {
    const order = results.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank);
    wrap.append(
      h("ol", { class: "ranks" },
        order.map(({ rank, seat }) =>
          h("li", { class: results.winners?.includes(seat) ? "winner" : "" },
            h("span", { class: "rank" }, t("end.rank", { rank })),
            h("span", { class: "rank-name" }, names[seat] || `#${seat + 1}`),
            h("span", { class: "rank-score" }, t("end.score", { score: results.scores?.[seat] ?? "" })),
          ))),
    );
  }
  if (room.seed) {
    wrap.append(
      h("p", {}, t("end.seed"), " ", h("code", { class: "seed" }, room.seed)),
      h("p", {}, t("end.commitment"), " ", h("code", { class: "commitment" }, room.commitment)),
      fairCheck({ room, noted: noted || { commitment: room.commitment, at: Date.now(), status: room.status }, mine, record: record(room.code) }),
      h("div", { class: "actions" },
        h("a", { class: "button", href: `/api/rooms/${encodeURIComponent(room.code)}/record`, download: `${room.game}-${room.code}.jsonl` }, t("end.download")),
        h("a", { class: "button", href: `/replay?room=${encodeURIComponent(room.code)}` }, t("end.replay")),
        h("a", { class: "button", id: "review-link", href: `/replay?room=${encodeURIComponent(room.code)}&review=1` }, t("review.open")),
        h("button", {
          type: "button", class: "primary", id: "again", onclick: onAgain,
          disabled: againBusy, "aria-busy": againBusy ? "true" : null,
        }, t("end.again")),
        h("a", { class: "button", href: "/" }, t("nav.lobby")),
      ),
    );
  } else {
    wrap.append(h("p", {}, h("a", { href: "/" }, t("nav.lobby"))));
  }
  return wrap;
}
