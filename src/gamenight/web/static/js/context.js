// The context a game's renderer (games/<id>.js) is handed: render(ctx) draws the table
// from it and describe(event, ctx) writes log lines with it. The room page and the replay
// page both build it here, so a renderer sees the same fields on both (docs/web.md).
// Events are never part of it: describe() gets one bare game event ({kind, ...fields}),
// from an `events` frame as it is, from a snapshot's [{seq, event}] its `event`, and from
// a replay frame as it is.

/**
 * The renderer's context. `legal` is empty for a spectator; `myTurn` says whether this
 * seat must act now; `odds` is the latest odds message ({seq, odds}) or null.
 */
export function rendererContext({
  view,
  legal = [],
  seat = null,
  toAct = [],
  names = [],
  room = null,
  game = null,
  finished = false,
  busy = false,
  local = {},
  act = () => {},
  rerender = () => {},
  replay = false,
  odds = null,
}) {
  const mine = seat === null ? [] : legal;
  return {
    view,
    legal: mine,
    seat,
    toAct,
    myTurn: seat !== null && toAct.includes(seat) && mine.length > 0,
    names,
    room,
    game,
    finished,
    busy,
    local, // scratch state of this position (picked dice...), reset at each seq
    act, // send one action (expected_seq is filled in)
    rerender, // draw again after a local change
    replay, // true on the replay page (legal is empty there)
    odds: odds && odds.odds ? odds : null,
  };
}
