// The room socket (docs/protocol.md): hello -> snapshot, then events/ack/error/chat/room.
// Reconnects by itself with backoff and resumes from the last seen seq, so a dropped
// network or a reload lands on the same seat; listeners see only "status" changes.
// The socket asks for the page's language (?lang=), so the few texts the server words for
// people (refusals, room notes) come in it; frames and records stay language-neutral.
//
// Honest about the connection (issue 40): a socket is given up the moment it is known to
// be gone, never when the browser gets round to closing it: a ping left unanswered until
// the next one is due, no snapshot soon after opening, or the browser's `offline` event.
// The status says "reconnecting" at once. An action sent on a socket given up is in doubt
// (it may still reach the server when the network comes back): it is sent again, as it
// was, on the next socket. The server answers a re-sent action that is already in the
// log with its `ack` (docs/protocol.md, "Re-sent actions"), and one the table moved past
// with `stale`, so the page learns which, and never sees an action applied after it said
// it was not.
import { language } from "./i18n.js";

export const PROTOCOL = 1;
export const PING_MS = 5000; // a ping every 5 s; unanswered when the next is due: gone
export const HELLO_MS = 10000; // no snapshot this long after opening: gone
export const REQUEST_MS = 15000; // an answer that never comes (not for actions: see above)

/** Milliseconds before reconnect attempt `attempt` (1, 2, …): 0.5 s doubling up to 8 s,
 * and never sooner than the server's `retry_after` (seconds) of a refused hello or an
 * outage (docs/protocol.md, "Reconnect throttle"): a hello sent earlier is refused again. */
export function reconnectDelay(attempt, retryAfter) {
  const backoff = Math.min(8000, 250 * 2 ** Math.min(attempt, 5));
  const told = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : 0;
  return Math.max(backoff, told);
}

export class Connection extends EventTarget {
  constructor(code, token) {
    super();
    this.code = code;
    this.token = token || null;
    this.lastSeq = -1;
    this.status = "connecting";
    this.nextId = 1;
    this.pending = new Map(); // id -> {resolve, reject, message, again}
    this.attempt = 0;
    this.stopped = false;
    this.socket = null;
    this.pingTimer = null;
    this.pingOut = null; // the id of the ping not answered yet
    this.helloTimer = null;
    this.retryTimer = null;
    this.retryAfter = 0; // seconds the server said to wait before the next hello
    this.waitUntil = 0; // Date.now() before which no hello goes out (retry_after)
    this.onOffline = () => this.giveUp("offline");
    this.onOnline = () => {
      // the network is back: try now rather than at the end of a long backoff (a
      // retry_after the server gave still holds)
      if (this.socket || this.stopped || this.status === "refused") return;
      if (Date.now() < this.waitUntil) return; // the server's retry_after still runs
      clearTimeout(this.retryTimer);
      this.open();
    };
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
  }

  open() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}?lang=${encodeURIComponent(language())}`);
    this.socket = socket;
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    // every listener first asks whether this is still the socket: one given up may
    // still speak (a late close, a late frame) and is not listened to
    socket.addEventListener("open", () => {
      if (socket !== this.socket) return;
      const hello = { type: "hello", protocol: PROTOCOL, last_seq: this.lastSeq };
      if (this.token) hello.token = this.token;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (e) => socket === this.socket && this.receive(e.data));
    socket.addEventListener("close", (e) => socket === this.socket && this.closed(e));
    clearTimeout(this.helloTimer);
    this.helloTimer = setTimeout(() => socket === this.socket && this.status !== "online" && this.giveUp("no snapshot"), HELLO_MS);
    clearInterval(this.pingTimer);
    this.pingOut = null;
    this.pingTimer = setInterval(() => this.ping(socket), PING_MS);
  }

  /** A ping; the one before it still unanswered means the socket is gone. */
  ping(socket) {
    if (socket !== this.socket || this.status !== "online") return;
    if (this.pingOut !== null) {
      this.giveUp("no pong");
      return;
    }
    const id = this.nextId++;
    if (this.send({ type: "ping", id })) this.pingOut = id;
  }

  close() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.helloTimer);
    clearTimeout(this.retryTimer);
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  /** The socket is known to be gone (`why`, for tests and logs): stop listening to it,
   * say "reconnecting" now and open another after the backoff. */
  giveUp(why) {
    const socket = this.socket;
    if (!socket || this.stopped) return;
    this.lastDrop = why;
    this.socket = null;
    try {
      socket.close(4000, why);
    } catch {
      /* closing a socket never opened */
    }
    this.lost();
  }

  closed(event) {
    this.socket = null;
    if (event.code === 4403 || event.code === 4404) {
      this.lost(true);
      this.setStatus("refused");
      return;
    }
    this.lastDrop = `closed ${event.code}`;
    this.lost();
  }

  /** After a socket: requests in doubt wait for the next one (actions) or fail. */
  lost(final = false) {
    clearInterval(this.pingTimer);
    clearTimeout(this.helloTimer);
    this.pingOut = null;
    for (const [id, entry] of this.pending) {
      if (entry.again && !final) {
        entry.sent = false; // sent again on the next socket
        continue;
      }
      this.pending.delete(id);
      entry.reject(new Error("disconnected"));
    }
    if (this.stopped || final) return;
    this.attempt += 1;
    this.setStatus("reconnecting");
    const delay = reconnectDelay(this.attempt, this.retryAfter);
    this.waitUntil = this.retryAfter > 0 ? Date.now() + this.retryAfter * 1000 : 0;
    this.retryAfter = 0;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => !this.stopped && this.open(), delay);
  }

  receive(raw) {
    let msg;
    try {
      msg = JSON.parse(raw);
    } catch {
      return;
    }
    if (msg.type === "error" && (msg.id === undefined || msg.id === null)) {
      // a refused hello (rate_limited) or an outage (unavailable): the socket closes next
      this.retryAfter = Number(msg.retry_after) || 0;
    }
    if (msg.type === "pong" && msg.id === this.pingOut) this.pingOut = null;
    if (msg.type === "snapshot") {
      this.attempt = 0;
      this.retryAfter = 0;
      clearTimeout(this.helloTimer);
      this.setStatus("online");
      this.lastSeq = msg.seq;
    } else if (msg.type === "events") {
      this.lastSeq = Math.max(this.lastSeq, msg.seq);
    } else if (msg.type === "undone") {
      this.lastSeq = msg.seq; // a move taken back: the table is one seq back
    }
    const entry = msg.id !== undefined && msg.id !== null ? this.pending.get(msg.id) : undefined;
    if (entry && msg.type === "error" && msg.code === "unavailable" && entry.again) {
      // the database is down: nothing changed; the same action again after retry_after
      const wait = Math.max(1, Number(msg.retry_after) || 1) * 1000;
      setTimeout(() => this.pending.get(msg.id) === entry && this.transmit(msg.id, entry), wait);
      return;
    }
    if (entry) {
      this.pending.delete(msg.id);
      // `resent`: the answer is to a copy sent again after a lost socket (a `stale` then
      // means the first copy never arrived: the table moved on without it)
      entry.resolve(entry.resent ? { ...msg, resent: true } : msg);
    }
    this.dispatchEvent(new CustomEvent(msg.type, { detail: msg }));
    if (msg.type === "snapshot") this.resend();
  }

  /** The actions in doubt go out again on the new socket (after its snapshot: the page
   * has the position they were made for). */
  resend() {
    for (const [id, entry] of this.pending) if (entry.again && !entry.sent) this.transmit(id, entry);
  }

  transmit(id, entry) {
    entry.sent = this.send({ ...entry.message, id });
    if (entry.sent) entry.resent = (entry.resent || 0) + 1;
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Send a request with an id; resolves with the answer that echoes it (ack/error/...).
   * Nothing is sent while the socket is not known to be up: the caller is told at once
   * ("offline") and nothing was applied. With `again` (actions) a request whose socket
   * is lost on the way is sent again on the next one and resolves with that answer. */
  request(message, { again = false } = {}) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.status !== "online" || !this.send({ ...message, id })) {
        reject(new Error("offline"));
        return;
      }
      const entry = { resolve, reject, message, again, sent: true };
      this.pending.set(id, entry);
      if (again) {
        // unanswered this long: the socket is gone although nobody said so
        const check = () => {
          if (this.pending.get(id) !== entry) return;
          if (entry.sent && this.socket && this.status === "online") this.giveUp("no answer");
          setTimeout(check, REQUEST_MS);
        };
        setTimeout(check, REQUEST_MS);
        return;
      }
      setTimeout(() => {
        if (this.pending.get(id) === entry) {
          this.pending.delete(id);
          reject(new Error("timeout"));
        }
      }, REQUEST_MS);
    });
  }
}
