// The replay page (/replay): open a finished room's record (?room=<code>) or upload a JSONL
// record; the server verifies it and returns every step's spectator view; step forwards
// and backwards with the same table renderers.
import { h, replace, $ } from "./dom.js";
import { t, translatePage, loadGameMessages } from "./i18n.js";
import { api } from "./api.js";
import { rendererFor } from "./games/index.js";
import { rendererContext } from "./context.js";
import { LogPanel, describe } from "./parts/log.js";
import { checkRecord } from "./fairness.js";

translatePage();
let data = null;
let index = 0;
const log = new LogPanel();
$("#side").append(log.el);

function showError(text) {
  $("#error").textContent = text || "";
  $("#error").hidden = !text;
}

function names() {
  return data.seats.map((s, i) => s.name || `#${i + 1}`);
}

function ctx(frame) {
  return rendererContext({ view: frame.view, toAct: frame.to_act, names: names(), finished: frame.finished,
    rerender: () => show(index), replay: true });
}

function show(i) {
  index = Math.max(0, Math.min(data.frames.length - 1, i));
  const frame = data.frames[index];
  const renderer = rendererFor(data.game);
  const c = ctx(frame);
  $("#table").hidden = false;
  replace($("#table"), renderer.render(c));
  log.clear();
  for (const f of data.frames.slice(0, index + 1)) for (const e of f.events) log.add(describe(renderer, e, c)); // bare events
  $("#position").textContent = t("replay.position", { n: index, of: data.frames.length - 1 });
  $("#scrub").value = String(index);
  $("#first").disabled = $("#prev").disabled = index === 0;
  $("#next").disabled = $("#last").disabled = index === data.frames.length - 1;
}

async function load(text) {
  showError("");
  try {
    data = await api.replay(text);
    await loadGameMessages(data.game);
  } catch (err) {
    showError(t("replay.bad", { message: err.message }));
    return;
  }
  $("#replay-title").textContent = t("replay.of", { name: data.name });
  $("#stepper").hidden = false;
  $("#scrub").max = String(data.frames.length - 1);
  const fair = await checkRecord(text, data.commitment).catch(() => null);
  $("#replay-info").textContent = [
    t("replay.players", { list: names().join(", ") }),
    t("end.seed") + " " + data.seed,
    fair && fair.ok ? t("replay.verified") : "",
  ].filter(Boolean).join(" · ");
  show(0);
}

$("#record-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (file) load(await file.text());
});
$("#room-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const code = $("#room-code").value.trim();
  if (!code) return;
  try {
    load(await api.record(code));
  } catch (err) {
    showError(t("replay.no_record"));
  }
});
$("#first").addEventListener("click", () => show(0));
$("#prev").addEventListener("click", () => show(index - 1));
$("#next").addEventListener("click", () => show(index + 1));
$("#last").addEventListener("click", () => show(data.frames.length - 1));
$("#scrub").addEventListener("input", (e) => show(Number(e.target.value)));
document.addEventListener("keydown", (e) => {
  if (!data || e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") show(index + 1);
  if (e.key === "ArrowLeft") show(index - 1);
});

const room = new URLSearchParams(location.search).get("room");
if (room) {
  $("#room-code").value = room;
  api.record(room).then(load).catch(() => showError(t("replay.no_record")));
}
