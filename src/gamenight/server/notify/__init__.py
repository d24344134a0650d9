"""Notifications that reach people (issue 44; docs/notifications.md): "your turn",
reminders and late clocks of turn-based rooms, by e-mail, Web Push and webhooks.

* :mod:`.tables` — subscriptions, the outbox, the server's keys (migration 0006);
* :mod:`.store` — their reads and writes; the outbox's claims;
* :mod:`.sweep` — the outbox rows the committed ``turns`` rows call for;
* :mod:`.message` — what a message says, in the subscriber's language;
* :mod:`.mail`, :mod:`.push`, :mod:`.hook` — the channels; :mod:`.targets` — where the
  server may post (no private networks, DNS rebinding checked);
* :mod:`.deliver` — the notifier: sweep, claim, send, retry;
* :mod:`.routes` — the HTTP API.
"""
