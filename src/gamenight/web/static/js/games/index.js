// Each game's board (its renderer), loaded when a page first shows that game: only the
// current game's module is fetched. Where each board is comes from installed.js, which
// the server makes from the game registry (gamenight.web.assets): gamenight's own games
// keep theirs here (js/games/<id>.js), a plug-in ships one in its package (web/board.js,
// served as games/<id>/board.js). A game without one, or whose board fails to load, gets
// the generic table (generic.js), so a new game needs nothing here to be played online.
import installed from "./installed.js";
import generic from "./generic.js";

const ROOT = new URL("../../", import.meta.url); // static/, in this page's version of it
const loaded = new Map(); // game id -> its renderer, once loadRenderer has it
const loading = new Map(); // game id -> the promise of it

/** Where game `gameId`'s file `path` (below static/) is, or null. */
export function gameFile(path) {
  return typeof path === "string" && path ? new URL(path, ROOT).href : null;
}

/** Load game `gameId`'s board (once); resolves to it, or to the generic table. */
export function loadRenderer(gameId) {
  if (!loading.has(gameId)) {
    const own = Object.hasOwn(installed, gameId) ? gameFile(installed[gameId].board) : null;
    loading.set(gameId, (own ? import(own).then((m) => m.default) : Promise.resolve(generic))
      .catch((err) => {
        console.error("the board of", gameId, "did not load:", err);
        return generic;
      })
      .then((renderer) => {
        loaded.set(gameId, renderer && typeof renderer.render === "function" ? renderer : generic);
        return loaded.get(gameId);
      }));
  }
  return loading.get(gameId);
}

/** Game `gameId`'s renderer if loadRenderer has loaded it, else the generic table. */
export function rendererFor(gameId) {
  return loaded.get(gameId) || generic;
}
