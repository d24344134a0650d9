// Fair dice on the room page (docs/fairness.md), game-agnostic:
// * fairBox: the commitment from the moment the room exists (copyable), how many players
//   have added their part of the dice, and the optional word of one's own;
// * fairCheck: at the end, this browser's own check of the record against the commitment
//   it noted first and the contribution it sent.
import { h } from "../dom.js";
import { t, formatDate } from "../i18n.js";
import { checkRecord, playerEntropy } from "../fairness.js";

const short = (hex) => String(hex || "").slice(0, 12);

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = t("fair.copied");
  } catch {
    window.prompt(t("fair.copy_prompt"), text);
  }
  setTimeout(() => (button.textContent = t("fair.copy")), 2500);
}

/**
 * ``noted``: {commitment, at, status} as this browser first saw it; ``mine``: this
 * browser's seat and contribution ({seat, value}) or null; ``word``/``onWord``: the
 * optional word typed before taking a seat.
 */
export function fairBox({ room, noted, mine, word, onWord, seated }) {
  const changed = noted && noted.commitment !== room.commitment;
  const copyButton = h("button", { type: "button", class: "small copy-commitment", "data-key": "copy-commitment",
    onclick: (e) => copy(room.commitment, e.currentTarget) }, t("fair.copy"));
  const box = h("div", { class: "fair-box", "data-status": room.status },
    h("h2", { class: "fair-title" }, t("fair.title")),
    h("p", { class: "fair-line" },
      h("span", {}, t("fair.commitment")), " ",
      h("code", { class: "commitment", title: room.commitment }, room.commitment), " ",
      copyButton),
    changed
      ? h("p", { class: "fair-bad", role: "alert" }, t("fair.changed", { noted: short(noted.commitment), now: short(room.commitment) }))
      : null);
  if (!playerEntropy(room.entropy)) return box;
  const humans = room.seats.filter((s) => s.kind === "human");
  if (room.status === "waiting") {
    const done = humans.filter((s) => s.contributed).length;
    box.append(h("p", { class: "fair-parts" }, t("fair.parts", { count: done, total: humans.length })));
    if (!seated) {
      box.append(
        h("label", { for: "fair-word" }, t("fair.word")),
        h("input", { id: "fair-word", type: "text", maxlength: 60, autocomplete: "off", value: word || "",
          "data-key": "fair-word", oninput: (e) => onWord(e.target.value) }),
        h("p", { class: "muted" }, t("fair.word_help")));
    }
  }
  if (mine && mine.value) {
    box.append(h("p", { class: "fair-mine" }, t("fair.mine"), " ", h("code", { class: "my-contribution" }, mine.value)));
  }
  if (room.status === "waiting") box.append(h("p", { class: "muted" }, t("fair.how")));
  return box;
}

/** The end-of-game check, filled in when the record has been read and checked. */
export function fairCheck({ room, noted, mine, record }) {
  const list = h("ul", { class: "fair-check", "aria-live": "polite" }, h("li", {}, t("end.checking")));
  const line = (ok, text) => h("li", { class: ok === true ? "ok" : ok === false ? "bad" : "" }, text);
  record
    .then((text) => checkRecord(text, noted.commitment, mine))
    .then((r) => {
      const lines = [];
      if (noted.status && noted.status !== "waiting" && noted.status !== "playing") {
        lines.push(line(null, t("end.noted_late")));
      }
      lines.push(r.ok && r.seed === room.seed
        ? line(true, t("end.fair", { fingerprint: short(noted.commitment), time: formatDate(new Date(noted.at), { timeStyle: "medium" }) }))
        : line(false, t("end.unfair", { noted: short(noted.commitment), computed: short(r.computed) })));
      if (playerEntropy(r.entropy)) {
        const players = (r.contributions || []).filter((p) => p.by === "player").length;
        lines.push(line(null, t("end.dice_seed", { count: players, seed: r.diceSeed })));
        if (r.mine !== null) lines.push(r.mine ? line(true, t("end.mine_ok")) : line(false, t("end.mine_bad")));
        if (r.servers !== null) lines.push(r.servers ? line(true, t("end.servers_ok")) : line(false, t("end.servers_bad")));
      }
      lines.push(line(null, t("end.check_dice")));
      list.replaceChildren(...lines);
      list.dataset.checked = r.ok && r.mine !== false && r.servers !== false ? "ok" : "bad";
    })
    .catch(() => {
      list.replaceChildren(line(false, t("end.check_failed")));
      list.dataset.checked = "failed";
    });
  return list;
}
