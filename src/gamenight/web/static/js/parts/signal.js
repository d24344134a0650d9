// The turn signal beyond the screen: a short tone (WebAudio, no audio file) and a system
// Notification when the tab is hidden. Both are off until the player turns them on; the
// choice is remembered in localStorage. Permission for notifications is asked only from
// the player's own press of the toggle (browsers refuse it otherwise).
const KEYS = { sound: "gamenight.signal.sound", notify: "gamenight.signal.notify" };

export function enabled(kind) {
  try {
    return localStorage.getItem(KEYS[kind]) === "on";
  } catch {
    return false;
  }
}

function remember(kind, on) {
  try {
    localStorage.setItem(KEYS[kind], on ? "on" : "off");
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

let audio = null;

/** Two short soft notes (A5, then E6); nothing if WebAudio is missing. */
export function tone() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  audio = audio || new Ctx();
  if (audio.state === "suspended") audio.resume().catch(() => {});
  const start = audio.currentTime + 0.01;
  [880, 1318.5].forEach((freq, i) => {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = "sine";
    osc.frequency.value = freq;
    const at = start + i * 0.14;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.16);
    osc.connect(gain).connect(audio.destination);
    osc.start(at);
    osc.stop(at + 0.18);
  });
  window.__gamenightTones = (window.__gamenightTones || 0) + 1; // for tests
  return true;
}

export function notificationsAvailable() {
  return typeof window.Notification === "function";
}

/** Turn a signal on or off (from a click: the permission request needs the gesture). */
export async function setEnabled(kind, on) {
  if (kind === "notify" && on) {
    if (!notificationsAvailable()) return false;
    let permission = Notification.permission;
    if (permission === "default") permission = await Notification.requestPermission();
    if (permission !== "granted") {
      remember(kind, false);
      return false;
    }
  }
  if (kind === "sound" && on) tone(); // a sample, and it unlocks audio on this page
  remember(kind, on);
  return on;
}

/** The player's turn began: the tone, and a notification if the tab is hidden. */
export function yourTurn({ title, body, tag }) {
  if (enabled("sound")) tone();
  if (enabled("notify") && document.hidden && notificationsAvailable() && Notification.permission === "granted") {
    try {
      const note = new Notification(title, { body, tag });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      window.__gamenightNotes = (window.__gamenightNotes || 0) + 1; // for tests
    } catch {
      /* some browsers allow notifications only from a service worker */
    }
  }
}
