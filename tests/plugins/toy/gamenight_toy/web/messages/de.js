// Toy Pigs eigene Wörter auf Deutsch.
export default {
  "toy.title": "Wer zuerst {target} Punkte hat",
  "toy.points": { one: "{n} Punkt", other: "{n} Punkte" },
  "toy.progress": "{name}: {score} von {target} Punkten",
  "toy.pot": { one: "{name} ist dran: {n} Punkt im Topf", other: "{name} ist dran: {n} Punkte im Topf" },
  "toy.roll": "Würfeln",
  "toy.hold": "Aufhören und den Topf sichern",
  "toy.log.roll": "{name} würfelt eine {face}",
  "toy.log.hold": { one: "{name} sichert {n} Punkt", other: "{name} sichert {n} Punkte" },
  "toy.log.bust": "{name} würfelt eine 1: der Topf ist verloren",
  "toy.log.start": { one: "Ein Spiel für {n} Person", other: "Ein Spiel für {n} Personen" },
};
