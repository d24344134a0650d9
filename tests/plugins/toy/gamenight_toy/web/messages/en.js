// Toy Pig's own words in English (the fallback of every language), merged into the page's
// catalogue when a page shows the game.
export default {
  "toy.title": "First to {target} points",
  "toy.points": { one: "{n} point", other: "{n} points" },
  "toy.progress": "{name}: {score} of {target} points",
  "toy.pot": { one: "{name}'s turn: {n} point in the pot", other: "{name}'s turn: {n} points in the pot" },
  "toy.roll": "Roll the die",
  "toy.hold": "Hold and bank the pot",
  "toy.log.roll": "{name} rolls a {face}",
  "toy.log.hold": { one: "{name} banks {n} point", other: "{name} banks {n} points" },
  "toy.log.bust": "{name} rolls a 1: the pot is lost",
  "toy.log.start": { one: "A game for {n} player", other: "A game for {n} players" },
};
