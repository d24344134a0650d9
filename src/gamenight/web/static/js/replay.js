// The replay page (/replay): open a finished room's record (?room=<code>, optionally
// &step=<n>) or upload a JSONL record; the server verifies it and returns every step's
// spectator view; step forwards and backwards with the same table renderers, or let it
// play by itself at a chosen speed. A room's replay keeps its step in the address
// (history.replaceState), so a link leads to the same step; "copy link" copies it.
import { h, replace, $, isolate } from "./dom.js";
import { t, translatePage, loadGameMessages, errorText, gameName } from "./i18n.js";
import { api } from "./api.js";
import { loadRenderer, rendererFor } from "./games/index.js";
import { rendererContext } from "./context.js";
import { LogPanel, describe } from "./parts/log.js";
import { checkRecord } from "./fairness.js";
import { reviewPanel } from "./parts/review.js";

translatePage();
let data = null;
let index = 0;
let roomCode = null; // the finished room shown, null for an uploaded record
let timer = null;
let attempt = 0; // the latest load; an older one that answers late is ignored
let recordText = null; // the record shown (the review is asked for it)
let review = null; // its review, once asked for and answered
let selected = null; // the review's decision shown
let reviewTimer = null;
const log = new LogPanel();
$("#side").append(log.el);

function showError(text) {
  $("#error").textContent = text || "";
  $("#error").hidden = !text;
}

function names() {
  return data.seats.map((s, i) => (s.name ? isolate(s.name) : `#${i + 1}`));
}

function ctx(frame) {
  return rendererContext({ view: frame.view, toAct: frame.to_act, names: names(), finished: frame.finished,
    rerender: () => show(index), replay: true });
}

/** The address of step `i` of the room shown (null for an uploaded record). */
function stepUrl(i) {
  if (!roomCode) return null;
  const url = new URL("/replay", location.origin);
  url.searchParams.set("room", roomCode);
  if (i > 0) url.searchParams.set("step", String(i));
  return url;
}

function show(i) {
  index = Math.max(0, Math.min(data.frames.length - 1, i));
  const frame = data.frames[index];
  const renderer = rendererFor(data.game);
  const c = ctx(frame);
  $("#table").hidden = false;
  $("#side").hidden = false;
  replace($("#table"), renderer.render(c));
  log.clear();
  for (const f of data.frames.slice(0, index + 1)) for (const e of f.events) log.add(describe(renderer, e, c)); // bare events
  $("#position").textContent = t("replay.position", { n: index, of: data.frames.length - 1 });
  $("#scrub").value = String(index);
  $("#first").disabled = $("#prev").disabled = index === 0;
  $("#next").disabled = $("#last").disabled = index === data.frames.length - 1;
  document.body.dataset.step = String(index);
  const url = stepUrl(index);
  if (url) history.replaceState(null, "", url);
  $("#copy-step").hidden = !url;
}

/** Forget the record shown: a new attempt never leaves the old one's table, steps or
 * "verified" on the page. */
function reset() {
  pause();
  data = null;
  index = 0;
  $("#stepper").hidden = true;
  $("#table").hidden = true;
  $("#side").hidden = true;
  $("#table").replaceChildren();
  $("#replay-info").textContent = "";
  $("#copied").textContent = "";
  $("#replay-title").textContent = t("replay.title");
  log.clear();
  recordText = null;
  review = null;
  selected = null;
  clearTimeout(reviewTimer);
  $("#review-slot").replaceChildren();
  $("#review-open").setAttribute("aria-expanded", "false");
  delete document.body.dataset.step;
  delete document.body.dataset.loaded;
  delete document.body.dataset.review;
}

async function load(text, { room = null, step = 0 } = {}) {
  const mine = ++attempt;
  let got;
  try {
    got = await api.replay(text);
    await Promise.all([loadGameMessages(got.game), loadRenderer(got.game)]);
  } catch (err) {
    if (mine !== attempt) return;
    showError(t("replay.bad", { message: errorText(err) }));
    return;
  }
  if (mine !== attempt) return;
  const fair = await checkRecord(text, got.commitment).catch(() => null);
  if (mine !== attempt) return;
  data = got;
  recordText = text;
  roomCode = room;
  $("#replay-title").textContent = t("replay.of", { name: gameName(data.game, data.name) });
  $("#stepper").hidden = false;
  $("#scrub").max = String(data.frames.length - 1);
  show(step);
  $("#replay-info").textContent = [
    t("replay.players", { list: names().join(", ") }),
    t("end.seed") + " " + data.seed,
    fair && fair.ok ? t("replay.verified") : t("replay.unverified"),
  ].join(" · ");
  document.body.dataset.loaded = fair && fair.ok ? "verified" : "unverified";
}

async function loadRoom(code, step = 0) {
  reset();
  showError("");
  const mine = ++attempt;
  let text;
  try {
    text = await api.record(code);
  } catch {
    if (mine === attempt) showError(t("replay.no_record"));
    return;
  }
  if (mine === attempt) await load(text, { room: code, step });
}

// ----- the review (issue 42) ----------------------------------------------------------------
function drawReview() {
  if (!review) return;
  const panel = reviewPanel(review, { names: names(), selected, onJump: jump });
  replace($("#review-slot"), panel);
  document.body.dataset.review = "ready";
}

/** Show decision `i` of the review: its position (the one before the choice) and every
 * option's value there. */
function jump(i) {
  pause();
  selected = i;
  show(review.decisions[i].at - 1);
  drawReview();
  const detail = $("#review-detail");
  if (detail) detail.setAttribute("tabindex", "-1");
  const button = document.querySelector(`.review-jump[data-decision="${i}"]`);
  if (button) button.focus();
}

async function openReview(tries = 0) {
  if (!recordText) return;
  const mine = attempt;
  $("#review-open").setAttribute("aria-expanded", "true");
  if (review) { drawReview(); return; }
  replace($("#review-slot"), h("p", { class: "muted", role: "status" }, t("review.loading")));
  let got;
  try {
    got = await api.review(recordText);
  } catch (err) {
    if (mine === attempt) replace($("#review-slot"), h("p", { class: "error" }, t("review.failed", { message: errorText(err) })));
    return;
  }
  if (mine !== attempt) return;
  if (!got.review) {
    // a table the exact values need is being built on the server (as for its bots)
    const text = got.build === "failed" ? t("review.build_failed") : t("review.building");
    replace($("#review-slot"), h("p", { class: "muted", role: "status" }, text));
    document.body.dataset.review = got.build === "failed" ? "failed" : "building";
    if (got.build !== "failed" && tries < 100) reviewTimer = setTimeout(() => openReview(tries + 1), 3000);
    return;
  }
  review = got.review;
  // fewer measures while a table is missing: building (the note says so), or never here
  if (review.waiting && got.build === "failed") review.waiting_failed = true;
  drawReview();
}

// ----- autoplay ----------------------------------------------------------------------------
function playing() {
  return timer !== null;
}

function drawPlay() {
  const on = playing();
  $("#play").textContent = on ? t("replay.pause") : t("replay.play");
  $("#play").setAttribute("aria-pressed", String(on));
  document.body.dataset.playing = String(on);
}

function tick() {
  if (!data || index >= data.frames.length - 1) {
    pause();
    return;
  }
  show(index + 1);
  timer = setTimeout(tick, Number($("#speed").value));
}

function play() {
  if (!data) return;
  if (index >= data.frames.length - 1) show(0); // from the start again
  clearTimeout(timer);
  timer = setTimeout(tick, Number($("#speed").value));
  drawPlay();
}

function pause() {
  clearTimeout(timer);
  timer = null;
  drawPlay();
}

// ----- controls ----------------------------------------------------------------------------
$("#record-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  reset();
  showError("");
  if (!file) return;
  roomCode = null;
  history.replaceState(null, "", "/replay");
  load(await file.text());
});
$("#room-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const code = $("#room-code").value.trim();
  if (code) loadRoom(code);
});
const step = (to) => () => { pause(); show(to()); };
$("#first").addEventListener("click", step(() => 0));
$("#prev").addEventListener("click", step(() => index - 1));
$("#next").addEventListener("click", step(() => index + 1));
$("#last").addEventListener("click", step(() => data.frames.length - 1));
$("#scrub").addEventListener("input", (e) => { pause(); show(Number(e.target.value)); });
$("#play").addEventListener("click", () => (playing() ? pause() : play()));
$("#speed").addEventListener("change", () => { if (playing()) play(); });
$("#review-open").addEventListener("click", () => openReview());
$("#copy-step").addEventListener("click", async () => {
  const url = String(stepUrl(index));
  try {
    await navigator.clipboard.writeText(url);
    $("#copied").textContent = t("replay.copied", { n: index });
  } catch {
    $("#copied").textContent = t("replay.copy_prompt", { url }); // no clipboard: the link as text
  }
});
document.addEventListener("keydown", (e) => {
  if (!data || e.target.closest("input, select, textarea")) return;
  if (e.key === "ArrowRight") { pause(); show(index + 1); }
  if (e.key === "ArrowLeft") { pause(); show(index - 1); }
});
drawPlay();

const params = new URLSearchParams(location.search);
const room = params.get("room");
if (room) {
  $("#room-code").value = room;
  const wanted = Number.parseInt(params.get("step") || "0", 10);
  loadRoom(room, Number.isFinite(wanted) && wanted > 0 ? wanted : 0).then(() => {
    if (params.get("review") === "1") openReview();
  });
}
