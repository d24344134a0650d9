// One renderer module per game, by game id. Adding a game = adding a module here.
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
  return RENDERERS[gameId] || generic;
}
