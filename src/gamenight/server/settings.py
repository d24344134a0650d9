"""Every setting of ``gamenight serve``, defined once: its flag, its ``GAMENIGHT_*``
environment variable, its default, its check and its line in ``docs/deploy.md``.

A flag wins over the environment, the environment over the default. Each value is
checked before the server starts; a bad one is one line naming the flag and the
variable (:class:`SettingError`), never a traceback.

>>> values = resolve({"port": "0"}, {"GAMENIGHT_LOG_FORMAT": "json"})
>>> values["port"], values["log_format"], values["host"]
(0, 'json', '127.0.0.1')
>>> resolve({"port": "http"}, {})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gamenight.server.settings.SettingError: --port (GAMENIGHT_PORT): 'http' is not a whole number ...
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any
from urllib.parse import urlsplit

from gamenight.core.errors import GamenightError
from gamenight.core.i18n import N_
from gamenight.server.config import Config

LEVELS = ("debug", "info", "warning", "error")
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})


class SettingError(GamenightError):
    """A setting's value is refused (one line naming its flag and variable)."""


# ----- checks: text -> value, or ValueError with why -------------------------------------
def _number(low: float, high: float, whole: bool) -> Callable[[str], Any]:
    def check(text: str) -> Any:
        kind = "whole number" if whole else "number"
        try:
            value: float = int(text) if whole else float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a {kind} from {low:g} to {high:g}") from None
        if not math.isfinite(value) or not low <= value <= high:
            raise ValueError(f"{text!r} is not a {kind} from {low:g} to {high:g}")
        return value

    return check


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number above 0") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{text!r} is not a number above 0")
    return value


def _choice(*choices: str) -> Callable[[str], str]:
    def check(text: str) -> str:
        if text.lower() not in choices:
            raise ValueError(f"{text!r} is not one of {', '.join(choices)}")
        return text.lower()

    return check


def _bool(text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"{text!r} is not one of 1/0, true/false, yes/no, on/off")


def _host(text: str) -> str:
    """An address or a host name to listen on."""
    host = text.strip()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not host or any(c.isspace() or c in "/?#@" for c in host):
        raise ValueError(f"{text!r} is not an address to listen on (e.g. 127.0.0.1, 0.0.0.0, ::)")
    return host


def _db(text: str) -> str:
    """A database URL ('' is the default file); its kind is checked at the start, with
    the database (serve.check_database_file: status 3, as the other refusals of it)."""
    if any(c.isspace() for c in text):
        raise ValueError(f"{text!r} is not a URL like sqlite:///path or postgresql://user@host/db")
    return text


def _origin(text: str) -> str:
    """``scheme://host[:port]`` as a browser sends it in ``Origin``."""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        raise ValueError(f"{text!r} is not an origin like https://games.example.org")
    if parts.query or parts.fragment or "@" in parts.netloc:
        raise ValueError(f"{text!r} is not an origin like https://games.example.org")
    try:
        parts.port  # noqa: B018 - raises for a bad port
    except ValueError:
        raise ValueError(f"{text!r} has a bad port") from None
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _network(text: str) -> str:
    try:
        return str(ipaddress.ip_network(text.strip(), strict=False))
    except ValueError:
        raise ValueError(f"{text!r} is not an address or a network like 10.0.0.0/8") from None


def _listen(text: str) -> str:
    """``HOST:PORT`` ('' is the server's own port)."""
    if not text:
        return ""
    host, sep, port = text.rpartition(":")
    if not sep:
        raise ValueError(f"{text!r} is not HOST:PORT, e.g. 127.0.0.1:9100")
    _host(host)
    _number(1, 65535, True)(port)
    return text


def _text(text: str) -> str:
    """Any one line of text."""
    if any(c in text for c in "\r\n\0"):
        raise ValueError("it must be one line")
    return text


def _mail_from(text: str) -> str:
    """A sender address, e.g. ``gamenight <games@example.org>`` ('' is made of the host)."""
    _text(text)
    if text and "@" not in text:
        raise ValueError(f"{text!r} is not an address like games@example.org")
    return text


# ----- the settings -------------------------------------------------------------------------
@dataclass(frozen=True)
class Setting:
    name: str  # the flag without its dashes; the key of resolve()'s answer with "_"
    default: Any
    help: str
    check: Callable[[str], Any]
    shown: str = ""  # the default as the table shows it ("" -> repr of default)
    many: bool = False  # repeatable flag; the variable holds a comma-separated list
    flag_pair: bool = False  # --name / --no-name
    tuning: bool = False  # a Config field of the same name (config_values)

    @property
    def key(self) -> str:
        return self.name.replace("-", "_")

    @property
    def flag(self) -> str:
        return f"--{self.name}"

    @property
    def env(self) -> str:
        return "GAMENIGHT_" + self.key.upper()

    def parse(self, text: str) -> Any:
        try:
            if self.many:
                return tuple(self.check(part) for part in text.split(",") if part.strip())
            return self.check(text)
        except ValueError as exc:
            raise SettingError(f"{self.flag} ({self.env}): {exc}") from None


_CONFIG = {f.name: f.default for f in fields(Config)}


def _tuning(
    name: str,
    help: str,
    check: Callable[[str], Any] = _positive,
    shown: str = "",
    flag_pair: bool = False,
) -> Setting:
    """A setting that is a :class:`~gamenight.server.config.Config` field of that name."""
    default = _CONFIG[name.replace("-", "_")]
    return Setting(name, default, help, check, shown, tuning=True, flag_pair=flag_pair)


SETTINGS: tuple[Setting, ...] = (
    Setting("host", "127.0.0.1", N_("address to listen on (0.0.0.0: every IPv4 address)"), _host),
    Setting(
        "port",
        8000,
        N_("port to listen on (0: any free port, printed at start)"),
        _number(0, 65535, True),
    ),
    Setting(
        "db",
        "",
        N_("database URL: sqlite:///path or postgresql://user@host/db"),
        _db,
        shown=N_("SQLite in the user data directory"),
    ),
    Setting(
        "public-url",
        "",
        N_("the address players open (invite links), e.g. https://games.example.org"),
        _origin,
        shown=N_("the address the browser used"),
    ),
    Setting(
        "origin",
        (),
        N_("another allowed browser Origin (repeat the flag; the variable: comma-separated)"),
        _origin,
        shown=N_("none"),
        many=True,
    ),
    Setting(
        "trusted-proxy",
        (),
        N_(
            "proxies (addresses or CIDRs) whose X-Forwarded-For/-Proto and Forwarded are "
            "believed; repeat the flag, the variable comma-separated"
        ),
        _network,
        shown=N_("none: the headers are ignored"),
        many=True,
    ),
    Setting(
        "wait-for-db",
        0.0,
        N_("retry an unreachable database this many seconds at start, then exit with status 3"),
        _number(0, 24 * 3600, False),
    ),
    Setting(
        "table-build",
        True,
        N_("build a missing solver table (Wurfeltod's) in a background process"),
        _bool,
        flag_pair=True,
    ),
    Setting("log-level", "info", N_("least important log records written"), _choice(*LEVELS)),
    Setting(
        "log-format",
        "text",
        N_("log records as text lines or one JSON object a line"),
        _choice("text", "json"),
    ),
    Setting(
        # off by default: each line is one a client causes, uncapped (issue 38, logs)
        "access-log",
        False,
        N_("one log record per HTTP request and socket"),
        _bool,
        flag_pair=True,
    ),
    Setting("metrics", "on", N_("serve /metrics (Prometheus)"), _choice("on", "off")),
    Setting(
        "metrics-listen",
        "",
        N_("serve /metrics on this HOST:PORT instead of the server's own address"),
        _listen,
        shown=N_("the server's address"),
    ),
    _tuning("bot-workers", N_("threads for bots, hints and odds"), _number(1, 256, True)),
    _tuning("msg-rate", N_("messages a second a socket may send on average")),
    _tuning("msg-burst", N_("messages a socket may send at once")),
    _tuning("chat-rate", N_("chat lines a second a socket may send on average")),
    _tuning("chat-burst", N_("chat lines a socket may send at once")),
    _tuning(
        "abuse-limit",
        N_("messages refused for rate before a socket is closed"),
        _number(1, 1_000_000, True),
    ),
    _tuning("reconnect-rate", N_("hellos a second per seat token")),
    _tuning("reconnect-burst", N_("hellos at once per seat token")),
    _tuning("address-rate", N_("hellos a second per client address")),
    _tuning("address-burst", N_("hellos at once per client address")),
    _tuning("resync", N_("seconds between re-reads of every held room's seq (PostgreSQL)")),
    _tuning("idle-check", N_("seconds between looks for idle rooms")),
    _tuning("turn-sweep", N_("seconds between looks for turn-based clocks that ran out")),
    _tuning("evict-after", N_("seconds a room no longer needed stays in memory")),
    _tuning("stall-warning", N_("log when the event loop wakes this many seconds late")),
    _tuning("contribute-wait", N_("seconds a full room waits for a seat's part of the seed")),
    _tuning(
        "gc-freeze",
        N_("seconds between moves of survivors out of the garbage collector (0: never)"),
        _number(0, 3600, False),
    ),
    _tuning(
        "smtp-host",
        N_("SMTP server for notification mails, reached with STARTTLS"),
        _text,
        shown=N_("none: no e-mail"),
    ),
    _tuning("smtp-port", N_("the SMTP server's port"), _number(1, 65535, True)),
    _tuning("smtp-user", N_("SMTP user name"), _text, shown=N_("none: no login")),
    _tuning(
        "smtp-password",
        N_("SMTP password (prefer the variable to the flag)"),
        _text,
        shown=N_("none"),
    ),
    _tuning(
        "smtp-from",
        N_("sender of notification mails, e.g. games@example.org"),
        _mail_from,
        shown=N_("noreply at the SMTP host"),
    ),
    _tuning(
        "smtp-ca",
        N_("a PEM file of CAs to trust for the SMTP server"),
        _text,
        shown=N_("the system's CAs"),
    ),
    _tuning(
        "notify-private",
        N_("let webhooks and push services on loopback and private networks be used"),
        _bool,
        flag_pair=True,
    ),
    _tuning("notify-every", N_("seconds between sweeps of the notifications' outbox")),
    Setting("loop", "auto", N_("uvicorn's event loop"), _choice("auto", "asyncio", "uvloop")),
    Setting(
        "ws",
        "auto",
        N_("uvicorn's WebSocket implementation"),
        _choice("auto", "websockets", "websockets-sansio", "wsproto"),
    ),
)
BY_KEY = {s.key: s for s in SETTINGS}
CONFIG_KEYS = tuple(s.key for s in SETTINGS if s.tuning)


def resolve(given: Mapping[str, Any], environ: Mapping[str, str]) -> dict[str, Any]:
    """Every setting's value: ``given`` (the flags; None or an empty tuple: not given),
    else its ``GAMENIGHT_*`` variable, else its default. Raises :class:`SettingError`."""
    out: dict[str, Any] = {}
    for setting in SETTINGS:
        raw = given.get(setting.key)
        if raw is None or raw == ():
            text = environ.get(setting.env)
            out[setting.key] = setting.default if text is None else setting.parse(text)
        elif setting.many:
            out[setting.key] = tuple(v for item in raw for v in setting.parse(str(item)))
        elif isinstance(raw, bool):
            out[setting.key] = raw
        else:
            out[setting.key] = setting.parse(str(raw))
    return out


def config_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`~gamenight.server.config.Config` fields among ``values``."""
    return {key: values[key] for key in CONFIG_KEYS}


def _shown(setting: Setting) -> str:
    if setting.shown:
        return setting.shown
    if isinstance(setting.default, bool):
        return "on" if setting.default else "off"
    return f"`{setting.default}`"


def markdown_table() -> str:
    """The table of ``docs/deploy.md`` ("Settings"); a test checks the doc holds it."""
    rows = ["| Flag | Variable | Default | What |", "|---|---|---|---|"]
    for s in SETTINGS:
        flag = f"`{s.flag}` / `--no-{s.name}`" if s.flag_pair else f"`{s.flag}`"
        rows.append(f"| {flag} | `{s.env}` | {_shown(s)} | {s.help} |")
    return "\n".join(rows) + "\n"


def click_params() -> list[Any]:
    """Every setting as a click option (raw text: :func:`resolve` checks it)."""
    import click

    from gamenight.core.i18n import _

    params: list[Any] = []
    for s in SETTINGS:
        default = _shown(s).strip("`")
        text = _("{help} [env {env}; default: {default}]").format(
            help=_(s.help), env=s.env, default=_(default) if s.shown else default
        )
        if s.flag_pair:
            params.append(click.Option([f"{s.flag}/--no-{s.name}", s.key], default=None, help=text))
        elif s.many:
            params.append(click.Option([s.flag, s.key], multiple=True, metavar="VALUE", help=text))
        else:
            params.append(click.Option([s.flag, s.key], default=None, metavar="VALUE", help=text))
    return params


def click_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Every setting as a click option of the command ``fn`` will be (a decorator)."""
    memo: list[Any] = fn.__dict__.setdefault("__click_params__", [])
    memo.extend(reversed(click_params()))  # click reverses the decorators' order
    return fn
