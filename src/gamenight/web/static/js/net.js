// The room socket (docs/protocol.md): hello -> snapshot, then events/ack/error/chat/room.
// Reconnects by itself with backoff and resumes from the last seen seq, so a dropped
// network or a reload lands on the same seat; listeners see only "status" changes.
// The socket asks for the page's language (?lang=), so the few texts the server words for
// people (refusals, room notes) come in it; frames and records stay language-neutral.
import { language } from "./i18n.js";

export const PROTOCOL = 1;

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
    this.pending = new Map();
    this.attempt = 0;
    this.stopped = false;
    this.socket = null;
    this.pingTimer = null;
    this.retryAfter = 0; // seconds the server said to wait before the next hello
  }

  open() {
    this.stopped = false;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}?lang=${encodeURIComponent(language())}`);
    this.socket = socket;
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    socket.addEventListener("open", () => {
      const hello = { type: "hello", protocol: PROTOCOL, last_seq: this.lastSeq };
      if (this.token) hello.token = this.token;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (e) => this.receive(e.data));
    socket.addEventListener("close", (e) => this.closed(e));
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
  }

  close() {
    this.stopped = true;
    clearInterval(this.pingTimer);
    if (this.socket) this.socket.close();
  }

  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  closed(event) {
    clearInterval(this.pingTimer);
    for (const { reject } of this.pending.values()) reject(new Error("disconnected"));
    this.pending.clear();
    if (this.stopped) return;
    if (event.code === 4403 || event.code === 4404) {
      this.setStatus("refused");
      return;
    }
    this.attempt += 1;
    this.setStatus("reconnecting");
    const delay = reconnectDelay(this.attempt, this.retryAfter);
    this.retryAfter = 0;
    setTimeout(() => !this.stopped && this.open(), delay);
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
    if (msg.type === "snapshot") {
      this.attempt = 0;
      this.setStatus("online");
      this.lastSeq = msg.seq;
    } else if (msg.type === "events") {
      this.lastSeq = Math.max(this.lastSeq, msg.seq);
    }
    if (msg.id !== undefined && msg.id !== null && this.pending.has(msg.id)) {
      const { resolve } = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      resolve(msg);
    }
    this.dispatchEvent(new CustomEvent(msg.type, { detail: msg }));
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Send a request with an id; resolves with the answer that echoes it (ack/error/...). */
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.send({ ...message, id })) {
        reject(new Error("offline"));
        return;
      }
      this.pending.set(id, { resolve, reject });
      setTimeout(() => {
        if (this.pending.has(id)) {
          this.pending.delete(id);
          reject(new Error("timeout"));
        }
      }, 15000);
    });
  }
}
