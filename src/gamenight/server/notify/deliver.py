"""The notifier of a server process: every ``every`` seconds, the sweep (outbox rows from
the committed ``turns`` rows), then the delivery of the due rows, one message per
subscription (its due rows batched), each channel on its own: a failing one is retried
with doubling waits and never holds up the others.

Every wall-clock read goes through ``clock`` (a test gives a fake week). Sending is done
in threads (smtplib, the HTTP posts), so the event loop never waits on a network.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from gamenight.server.notify import hook, mail, push
from gamenight.server.notify.message import compose
from gamenight.server.notify.store import Claimed, NotifyStore, Sub
from gamenight.server.notify.sweep import sweep
from gamenight.server.tokens import new_token, token_hash

log = logging.getLogger("gamenight.server.notify")

LEASE = 120.0  # seconds a claim holds: well over a channel's timeouts (mail 30 s)
BACKOFF = 30.0  # seconds before the first retry; doubled at each


@dataclass(frozen=True)
class Channels:
    """How this server reaches people (the ``--smtp-*`` and ``--notify-*`` settings)."""

    base_url: str = ""  # Config.public_url: the rooms' and the unsubscribe links
    smtp: mail.Smtp | None = None  # None: no e-mail
    allow_private: bool = False  # webhooks and push services on private addresses


def unsubscribe_url(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/notify/unsubscribe?token={token}"


def _topic(rows: list[Claimed]) -> str:
    ids = ",".join(str(r.id) for r in rows).encode()
    return base64.urlsafe_b64encode(hashlib.sha256(ids).digest()[:24]).decode()  # 32 chars


class Notifier:
    """Sweeps and delivers for one process (``me``: its tag in ``claimed_by``)."""

    def __init__(
        self,
        store: NotifyStore,
        channels: Channels,
        clock: Callable[[], float] = time.time,
        me: str | None = None,
    ) -> None:
        self.store = store
        self.channels = channels
        self.clock = clock
        self.me = me or secrets.token_hex(6)
        self._vapid: str | None = None

    async def vapid(self) -> str:
        """The server's VAPID private key (PEM), made once for the whole cluster."""
        if self._vapid is None:
            self._vapid = await self.store.key("vapid", push.new_private_pem)
        return self._vapid

    async def once(self) -> int:
        """One sweep and one delivery round; the number of messages sent."""
        now = self.clock()
        await sweep(self.store, now)
        sent = 0
        for sub_id in await self.store.due_subs(now):
            sent += await self.deliver(sub_id, now)
        return sent

    async def deliver(self, sub_id: int, now: float) -> int:
        rows = await self.store.claim(sub_id, self.me, now, LEASE)
        if not rows:
            return 0
        current = await self.store.current_seqs((r.room_id, r.seat) for r in rows)
        old = [r for r in rows if r.kind != "late" and current.get((r.room_id, r.seat)) != r.seq]
        if old:
            await self.store.stale([r.id for r in old], self.me)
        rows = [r for r in rows if r not in old]
        sub = await self.store.sub(sub_id)
        if not rows or sub is None:
            return 0
        if sub.channel == "push":
            await self.vapid()
        try:
            link = await self._unsubscribe(rows)
            await asyncio.to_thread(self._send, sub, rows, link, now)
        except Exception as exc:  # one channel's failure: retried later, others go on
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            log.warning(
                "notification %s to subscription %d failed: %s", sub.channel, sub.id, reason
            )
            await self.store.retry(rows, self.me, self.clock(), reason, BACKOFF)
            return 0
        # the crash window: sent, not yet marked (docs/notifications.md)
        await self.store.sent([r.id for r in rows], self.me, self.clock())
        return 1

    async def _unsubscribe(self, rows: list[Claimed]) -> str:
        """The message's own unsubscribe link (its token stored hashed on its rows)."""
        token = new_token()
        await self.store.set_unsub_hash([r.id for r in rows], self.me, token_hash(token))
        return unsubscribe_url(self.channels.base_url, token)

    def _send(self, sub: Sub, rows: list[Claimed], unsubscribe: str, now: float) -> None:
        message = compose(rows, sub.lang, self.channels.base_url, unsubscribe, now)
        delivery = "-".join(str(r.id) for r in rows)
        if sub.channel == "email":
            smtp = self.channels.smtp
            if smtp is None:
                raise mail.MailError("no SMTP server is set (--smtp-host)")
            sender = smtp.sender or f"gamenight <noreply@{smtp.host}>"
            message_id = f"<gamenight.{delivery}@{smtp.host}>"
            mail.send(smtp, mail.build(message, sub.target, sender, message_id))
        elif sub.channel == "webhook":
            data = {"delivery": delivery, "unsubscribe": unsubscribe, **message.data()}
            hook.send(
                sub.target,
                sub.secret,
                data,
                delivery,
                now,
                allow_private=self.channels.allow_private,
            )
        elif sub.channel == "push":
            assert self._vapid is not None
            contact = self.channels.smtp.sender if self.channels.smtp else ""
            data = {"delivery": delivery, "url": message.links[0], **message.data()}
            push.send(
                json.loads(sub.target),
                data,
                self._vapid,
                contact or push.CONTACT,
                _topic(rows),
                allow_private=self.channels.allow_private,
            )
        else:
            raise ValueError(f"no channel {sub.channel!r}")

    async def run(self, every: float) -> None:
        """Sweep and deliver every ``every`` seconds until cancelled; a failure (the
        database away) is logged and tried again next time."""
        await self.vapid()
        while True:
            try:
                await self.once()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning(
                    "the notifications' sweep failed: %s",
                    str(exc).splitlines()[0] if str(exc) else exc,
                )
            await asyncio.sleep(every)
