// A seat the signed-in account holds, taken up on this device (docs/accounts.md): the
// server issues a fresh seat token (the other device's stops working); this browser keeps
// it as if it had claimed the seat here, and opens the room.
import { api } from "./api.js";
import * as store from "./store.js";

export async function resume(code, seat, game) {
  const got = await api.resume(code, seat);
  store.remember(code, { seat: got.seat, token: got.token, game });
  location.assign(`/r/${encodeURIComponent(code)}`);
}

/** Whether a room of the account (GET /api/account's rooms) can be taken up here. */
export function resumable(room) {
  return room.status === "waiting" || room.status === "playing";
}
