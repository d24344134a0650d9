"""A notifier in a process of its own (test_notify_processes.py): ``python notify_worker.py
DB_URL NOW SECONDS SMTP_PORT CA_FILE GO`` says "ready", waits for the file GO (so that
the processes start together), then sweeps and delivers at the fake time NOW, again and
again for SECONDS of real time, and prints how many messages it sent."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from gamenight.server.notify.deliver import Channels, Notifier
from gamenight.server.notify.mail import Smtp
from gamenight.server.notify.store import NotifyStore


async def main(url: str, now: float, seconds: float, port: int, ca: str, go: Path) -> int:
    from sqlalchemy.ext.asyncio import create_async_engine

    from gamenight.server.dburl import normalise_url

    engine = create_async_engine(normalise_url(url))
    channels = Channels("https://games.example", Smtp("127.0.0.1", port, ca_file=ca), True)
    notifier = Notifier(NotifyStore(engine), channels, lambda: now)
    sent = 0
    print("ready", flush=True)
    while not go.exists():
        await asyncio.sleep(0.01)
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end:
            sent += await notifier.once()
    finally:
        await engine.dispose()
    return sent


if __name__ == "__main__":
    url, now, seconds, port, ca, go = sys.argv[1:7]
    print(asyncio.run(main(url, float(now), float(seconds), int(port), ca, Path(go))), flush=True)
