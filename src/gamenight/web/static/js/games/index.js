// The browser's renderer of each game, by game id; any other game (a plug-in's) gets the
// generic table (generic.js), so a new game needs nothing here to be played online.
import decathlon from "./decathlon.js";
import diceDuel from "./dice-duel.js";
import wurfeltod from "./wurfeltod.js";
import decades from "./decades.js";
import generic from "./generic.js";

const RENDERERS = {
  decathlon,
  "dice-duel": diceDuel,
  wurfeltod,
  decades,
};

export function rendererFor(gameId) {
  return Object.hasOwn(RENDERERS, gameId) ? RENDERERS[gameId] : generic;
}
