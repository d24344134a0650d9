// "Tell me when it is my move" on the room page of a turn-based room (docs/notifications.md):
// Web Push on this device (the service worker /sw.js, the server's VAPID key), or e-mail.
// A seated guest subscribes with its seat token; a signed-in player without one, with its
// account. Nothing here for a live room, a spectator or a finished game.
import { h, $ } from "./dom.js";
import { t, language, errorText } from "./i18n.js";
import { api, call, mayBeSignedIn } from "./api.js";
import * as store from "./store.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

/** The VAPID key (base64url) as the bytes pushManager.subscribe takes. */
export function keyBytes(base64url) {
  const padded = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function who() {
  const mine = store.room(code) || {};
  if (mine.token && Number.isInteger(mine.seat)) {
    return { query: `?room=${encodeURIComponent(code)}&seat=${mine.seat}`, token: mine.token };
  }
  return mayBeSignedIn() ? { query: "", token: undefined } : null;
}

async function subscribe(owner, channel, target) {
  return call("POST", `/api/notify/subscriptions${owner.query}`, { channel, target, lang: language() }, owner.token);
}

async function pushHere(owner) {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    throw new Error(t("notify.unsupported"));
  }
  if ((await Notification.requestPermission()) !== "granted") throw new Error(t("notify.denied"));
  const registration = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  const { public_key: key } = await call("GET", "/api/notify/vapid");
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key),
  });
  return subscribe(owner, "push", JSON.stringify(subscription.toJSON()));
}

function panel(owner) {
  const section = $("#notify");
  const status = h("p", { class: "muted", role: "status", id: "notify-status" });
  const say = (text) => (status.textContent = text);
  const pushButton = h("button", { type: "button", id: "notify-push" }, t("notify.push"));
  pushButton.addEventListener("click", async () => {
    pushButton.disabled = true;
    try {
      await pushHere(owner);
      say(t("notify.push_on"));
    } catch (err) {
      say(err.code ? errorText(err) : err.message);
      pushButton.disabled = false;
    }
  });
  const email = h("input", { id: "notify-email", type: "email", autocomplete: "email", required: true });
  const form = h(
    "form",
    { class: "notify-mail" },
    h("label", { for: "notify-email" }, t("notify.email_label")),
    email,
    h("button", { type: "submit", id: "notify-email-send" }, t("notify.email")),
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await subscribe(owner, "email", email.value.trim());
      say(t("notify.email_on", { address: email.value.trim() }));
      email.value = "";
    } catch (err) {
      say(err.code ? errorText(err) : err.message);
    }
  });
  section.replaceChildren(
    h("h2", { id: "notify-title" }, t("notify.title")),
    h("p", { class: "muted" }, t("notify.why")),
    pushButton,
    form,
    status,
  );
  section.hidden = false;
}

async function main() {
  const section = $("#notify");
  if (!section) return;
  const room = await api.room(code).catch(() => null);
  if (!room || room.room_options.pace !== "turn-based" || !["waiting", "playing"].includes(room.status)) return;
  const owner = who();
  if (owner) panel(owner);
}

main();
