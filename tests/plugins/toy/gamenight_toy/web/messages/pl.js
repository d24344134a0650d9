// Własne słowa Toy Pig po polsku (formy: one/few/many/other).
export default {
  "toy.title": "Kto pierwszy zdobędzie {target} punktów",
  "toy.points": { one: "{n} punkt", few: "{n} punkty", many: "{n} punktów", other: "{n} punktu" },
  "toy.progress": "{name}: {score} z {target} punktów",
  "toy.pot": { one: "Kolej: {name}, w puli {n} punkt", few: "Kolej: {name}, w puli {n} punkty", many: "Kolej: {name}, w puli {n} punktów", other: "Kolej: {name}, w puli {n} punktu" },
  "toy.roll": "Rzuć kostką",
  "toy.hold": "Stój i zabierz pulę",
  "toy.log.roll": "{name} wyrzuca {face}",
  "toy.log.hold": { one: "{name} zabiera {n} punkt", few: "{name} zabiera {n} punkty", many: "{name} zabiera {n} punktów", other: "{name} zabiera {n} punktu" },
  "toy.log.bust": "{name} wyrzuca 1: pula przepada",
  "toy.log.start": { one: "Gra dla {n} osoby", few: "Gra dla {n} osób", many: "Gra dla {n} osób", other: "Gra dla {n} osoby" },
};
