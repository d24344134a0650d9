"""What the notification tests share: a database with turn-based rooms whose ``turns``
rows the test writes itself (h-turnroom's part), a real SMTP server with STARTTLS
(aiosmtpd, a self-signed certificate made here), and a real HTTP receiver (webhooks and a
push service), each counting what it received."""

from __future__ import annotations

import base64
import datetime
import http.server
import ipaddress
import json
import os
import ssl
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from sqlalchemy import create_engine, delete, insert
from sqlalchemy.engine import Engine

from gamenight.server.dburl import sync_url
from gamenight.server.notify.tables import NOTIFY_SUBS
from gamenight.server.storage.schema import ROOMS, SEATS, TURNS, migrate
from gamenight.server.tokens import token_hash

DAY = 86400.0
TURN_BASED = json.dumps({"pace": "turn-based", "move_time": 43200, "time_bank": 3600})


class Tables:
    """Rows written straight into a migrated database (sync SQLAlchemy)."""

    def __init__(self, url: str) -> None:
        migrate(url)
        self.engine: Engine = create_engine(sync_url(url))

    def room(self, code: str, seats: int = 2, room_options: str = TURN_BASED) -> int:
        with self.engine.begin() as conn:
            room_id = conn.execute(
                insert(ROOMS).values(
                    code=code,
                    game="dice-duel",
                    options="{}",
                    room_options=room_options,
                    public=False,
                    status="playing",
                    seed="1",
                    commitment="c",
                    host_token_hash="h",
                    seq=0,
                    note="",
                    created_at=0.0,
                    updated_at=0.0,
                )
            ).inserted_primary_key[0]  # type: ignore[index]
            for seat in range(seats):
                conn.execute(
                    insert(SEATS).values(
                        room_id=room_id,
                        seat=seat,
                        kind="human",
                        bot="",
                        name=["Ada", "Bob", "Cy"][seat],
                        token_hash=token_hash(f"{code}-{seat}"),
                    )
                )
        return int(room_id)

    def account(self, name: str, rooms: list[int], seat: int = 0) -> int:
        """An account holding ``seat`` of each of ``rooms``."""
        from sqlalchemy import update

        from gamenight.server.accounts.tables import ACCOUNTS

        with self.engine.begin() as conn:
            account_id = conn.execute(
                insert(ACCOUNTS).values(
                    name=name, name_fold=name.lower(), name_skeleton=name.lower(), created_at=0.0
                )
            ).inserted_primary_key[0]  # type: ignore[index]
            conn.execute(
                update(SEATS)
                .where(SEATS.c.room_id.in_(rooms), SEATS.c.seat == seat)
                .values(account_id=account_id)
            )
        return int(account_id)

    def subscribe_account(
        self, account_id: int, channel: str, target: str, secret: str = ""
    ) -> int:
        with self.engine.begin() as conn:
            sub_id = conn.execute(
                insert(NOTIFY_SUBS).values(
                    account_id=account_id,
                    channel=channel,
                    target=target,
                    secret=secret,
                    lang="en",
                    unsub_hash=os.urandom(16).hex(),
                    created_at=0.0,
                )
            ).inserted_primary_key[0]  # type: ignore[index]
        return int(sub_id)

    def turn(self, room_id: int, seat: int, seq: int, since: float, deadline: float | None) -> None:
        """The decision of ``seat`` (the one of the room: the previous is gone)."""
        with self.engine.begin() as conn:
            conn.execute(delete(TURNS).where(TURNS.c.room_id == room_id))
            conn.execute(
                insert(TURNS).values(
                    room_id=room_id, seat=seat, seq=seq, since=since, deadline=deadline
                )
            )

    def subscribe(
        self, room_id: int, seat: int, channel: str, target: str, secret: str = "", lang: str = "en"
    ) -> int:
        with self.engine.begin() as conn:
            sub_id = conn.execute(
                insert(NOTIFY_SUBS).values(
                    room_id=room_id,
                    seat=seat,
                    channel=channel,
                    target=target,
                    secret=secret,
                    lang=lang,
                    unsub_hash=os.urandom(16).hex(),
                    created_at=0.0,
                )
            ).inserted_primary_key[0]  # type: ignore[index]
        return int(sub_id)

    def close(self) -> None:
        self.engine.dispose()


class FakeClock:
    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now


# ----- a certificate for 127.0.0.1 ---------------------------------------------------------
def self_signed(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_path, key_path


@dataclass
class Mailbox:
    messages: list[Any] = field(default_factory=list)
    tls: list[bool] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        import email
        from email import policy

        self.messages.append(email.message_from_bytes(envelope.content, policy=policy.default))
        self.tls.append(session.ssl is not None)
        return "250 OK"


@contextmanager
def smtp_server(folder: Path) -> Iterator[tuple[Mailbox, int, Path]]:
    """A real SMTP server on 127.0.0.1 that requires STARTTLS; (mailbox, port, CA file)."""
    from aiosmtpd.controller import Controller

    from gamenight.server.testing import free_port

    cert, key = self_signed(folder)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    box = Mailbox()
    port = free_port()
    controller = Controller(
        box, hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True
    )
    controller.start()
    try:
        yield box, port, cert
    finally:
        controller.stop()


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """A real HTTP server on 127.0.0.1 keeping every POST; ``fail`` answers 503 that many
    times first."""

    def __init__(self) -> None:
        self.got: list[Received] = []
        self.fail = 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                if outer.fail > 0:
                    outer.fail -= 1
                    self.send_response(503)
                else:
                    outer.got.append(Received(self.path, dict(self.headers.items()), body))
                    self.send_response(201)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """A browser's push subscription: its key pair and auth secret, made here, so the
    test can decrypt what the push service received."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {
            "endpoint": endpoint,
            "keys": {"p256dh": b64(public), "auth": b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        import http_ece

        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


def wait_until(check: Any, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.02)
