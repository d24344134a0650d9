// The end of a game: ranks, the revealed seed with its fairness check, the record,
// a replay link and "play again" with the same seats.
import { h } from "../dom.js";
import { t, ordinal } from "../i18n.js";
import { api } from "../api.js";
import { fairCheck } from "./fair.js";

/** The result moment: who won, and this player's place, big, at the top of the end. */
function resultMoment(results, names, me, live) {
  const winners = (results.winners || []).map((s) => names[s] || `#${s + 1}`);
  const mine = me !== null && me !== undefined && results.ranks[me] !== undefined;
  const won = mine && (results.winners || []).includes(me);
  const headline = won ? t("end.moment_won") : mine ? t("end.moment_place", { place: ordinal(results.ranks[me]), of: results.ranks.length }) : t("end.moment_winners", { names: winners.join(", ") });
  const sub = mine && !won && winners.length ? t("end.moment_winners", { names: winners.join(", ") }) : null;
  return h("div", { class: `result-moment ${won ? "won" : ""} ${live ? "live" : ""}`, role: "status", "data-place": mine ? String(results.ranks[me]) : "" },
    won ? h("div", { class: "moment-burst", "aria-hidden": "true" }, Array.from({ length: 8 }, () => h("span"))) : null,
    h("p", { class: "moment-headline" }, headline),
    sub ? h("p", { class: "moment-sub" }, sub) : null);
}

/** A rematch someone offered at this table: accept sits down in the same seat there. */
function rematchOffer(offer, me, onAccept, busy) {
  const own = me !== null && me !== undefined && offer.seat === me;
  return h("div", { class: "rematch-offer", role: "region", "aria-label": t("end.rematch_title"), "data-code": offer.code },
    h("p", {}, own ? t("end.rematch_mine") : t("end.rematch_offer", { name: offer.name })),
    own ? null : h("button", {
      type: "button", class: "primary", id: "accept-rematch", "data-key": "accept-rematch",
      disabled: busy, "aria-busy": busy ? "true" : null, onclick: onAccept,
    }, me === null || me === undefined ? t("end.rematch_watch") : t("end.rematch_accept")));
}

const records = new Map(); // room code -> the record's text (fetched once per page)

function record(code) {
  if (!records.has(code)) records.set(code, api.record(code));
  return records.get(code);
}

// noted: the commitment as this browser first saw it; mine: {seat, value} of the
// contribution it sent (parts/fair.js checks the record against both); againBusy: a
// rematch is on its way (its button waits: a double tap makes one room)
// me: this page's seat (null: watching); live: the game ended while the page was open (the
// result moment plays, unless reduced motion); offer: the rematch offered at this table
// ({seat, name, code}) with onAccept to take it
export function endPanel({ room, names, onAgain, againBusy = false, noted, mine, me = null, live = false, offer = null, onAccept = null, acceptBusy = false }) {
  const results = room.results;
  const heading = room.status === "closed" ? t("end.closed") : room.status === "broken" ? t("end.broken") : t("end.title");
  const wrap = h("div", { class: "end" });
  if (room.status === "finished" && results && results.ranks) wrap.append(resultMoment(results, names, me, live));
  if (offer && room.status === "finished") wrap.append(rematchOffer(offer, me, onAccept, acceptBusy));
  wrap.append(h("h2", {}, heading));
  // a room the server cannot rebuild: its notes say why (the record is offered only
  // for a finished game, below)
  if (room.status === "broken" && room.notes?.length) wrap.append(h("p", { class: "broken-reason" }, room.notes[room.notes.length - 1]));
  if (results && results.ranks) {
    const order = results.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank);
    wrap.append(
      h("ol", { class: "ranks" },
        order.map(({ rank, seat }) =>
          h("li", { class: results.winners?.includes(seat) ? "winner" : "" },
            h("span", { class: "rank" }, t("end.rank", { rank: ordinal(rank) })),
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
