// "Play again with the same people": a new room of the same game with the same seats
// (bots stay the same bots, human seats are open for the same friends), the same game
// and room options and the same public/private setting; this browser hosts it and, if it
// held a seat of the old room, sits in the same seat under the same name. Used by the
// lobby's "Your games"; the end screen's play again (room.js) can call it as well.
import { api } from "./api.js";
import * as store from "./store.js";
import { newContribution } from "./fairness.js";

/** The seats of `room` (a RoomInfo) as POST /api/rooms wants them. */
export function sameSeats(room) {
  return room.seats.map((s) => (s.kind === "bot" ? `bot:${s.bot}` : "human"));
}

/**
 * Create the rematch of finished room `room` (a RoomInfo); `seat` is this browser's seat
 * in it (null: none) and `name` the name to sit down with. Resolves to the new room's
 * code; the host token (and the seat token) are remembered in this browser.
 */
export async function rematch(room, { seat = null, name = "" } = {}) {
  const seats = sameSeats(room);
  const created = await api.create({
    game: room.game,
    seats,
    options: room.options,
    public: room.public,
    room: room.room_options,
  });
  store.remember(created.code, { hostToken: created.host_token, game: room.game, rematchOf: room.code });
  store.noteCommitment(created.code, created.commitment, "waiting"); // first sight (docs/fairness.md)
  if (seat !== null && seat !== undefined && seats[seat] === "human" && name) {
    const contribution = newContribution(); // this player's part of the dice
    const claimed = await api.claim(created.code, seat, name, contribution);
    store.remember(created.code, { seat: claimed.seat, token: claimed.token, name, contribution });
  }
  return created.code;
}
