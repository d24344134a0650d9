"""The browser front end: static pages, ES modules and CSS, plus the replay endpoint.

Everything the browser loads lives in ``static/`` (and in game plug-ins' ``web/``
folders) and is served as is (no build step, no CDN), gzipped and named by content
(:mod:`gamenight.web.assets`). :func:`route_handlers` gives the server app its pages
(``/``, ``/r/<code>``, ``/replay``), the files (``/v/<version>/static/...``, cached for
good, and ``/static/...``, revalidated) and
``POST /api/replay`` (a JSONL record in, every step's spectator view out); the rules
page is rendered here from the game's ``rules.md`` (:mod:`gamenight.web.rules`), and
``/favicon.ico`` is the site icon. See ``docs/web.md``.
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from litestar import MediaType, Request, Response, get, post
from litestar.datastructures import CacheControlHeader
from litestar.exceptions import NotFoundException
from litestar.handlers import BaseRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import OpenAPIMediaType, OpenAPIType, Operation, RequestBody, Schema
from litestar.params import FromPath, FromQuery, RawBody
from litestar.router import Router

from gamenight.core import languages, registry, seeds
from gamenight.core.errors import GamenightError
from gamenight.core.frames import Step
from gamenight.core.game import to_json
from gamenight.core.i18n import said
from gamenight.core.languages import NAMES, LanguageError, check_language, negotiate
from gamenight.core.record import parse_record, replay
from gamenight.core.vocabulary import vocabulary
from gamenight.web import assets
from gamenight.web.rules import rules_html, rules_title

STATIC = Path(__file__).parent / "static"
MAX_RECORD_BYTES = 4 * 1024 * 1024
PAGES = {
    "lobby": "index.html",
    "room": "room.html",
    "replay": "replay.html",
    "rules": "rules.html",
    "account": "account.html",
}


class Frame(msgspec.Struct, frozen=True):
    """One step of a replay: who did what, what it caused, and the table after it."""

    seq: int
    seat: int | None
    action: Any
    events: list[Any]
    view: Any
    to_act: tuple[int, ...]
    finished: bool


class Replay(msgspec.Struct, frozen=True):
    """A verified record, ready to step through: frame 0 is the start."""

    game: str
    name: str
    options: dict[str, Any]
    seats: list[dict[str, str]]
    seed: str
    commitment: str
    results: Any
    frames: list[Frame]


class ReplayProblem(msgspec.Struct, frozen=True):
    code: str
    message: str


REPLAY_ERRORS = {  # the codes of POST /api/replay's errors, by status (docs/protocol.md)
    400: "`bad_record`",
    403: "`bad_origin`",
    413: "`too_large`",
    415: "`unsupported_media_type`",
    500: "`internal`",
}
RECORD_MEDIA_TYPES = ("application/x-ndjson", "application/json")
GET_ERRORS = {  # the codes of the front end's GET routes' errors, by status (the guard's)
    400: "`bad_request`",
    404: "`not_found`",
    500: "`internal`",
}


def get_errors() -> dict[int, ResponseSpec]:
    """The OpenAPI error answers of a GET route of the front end."""
    return {
        status: ResponseSpec(ReplayProblem, description=codes, generate_examples=False)
        for status, codes in GET_ERRORS.items()
    }


@dataclass
class ReplayOperation(Operation):
    """The OpenAPI operation of ``POST /api/replay``: its body is a record (JSON Lines,
    ``application/x-ndjson``; ``application/json`` is taken too), at most 4 MiB."""

    def __post_init__(self) -> None:
        text = OpenAPIMediaType(schema=Schema(type=OpenAPIType.STRING))
        self.request_body = RequestBody(
            content=dict.fromkeys(RECORD_MEDIA_TYPES, text),
            description="a game record as JSON Lines (`GET /api/rooms/{code}/record`)",
            required=True,
        )


def replay_frames(text: str) -> Replay:
    """Verify a JSONL record and turn it into frames of spectator views, in one
    replay (a visitor collects each step as it is checked). The game is over and its
    seed revealed, so every action and event is shown in full; the position is the
    spectator's frame."""
    record = parse_record(text.splitlines(), "record")
    frames: list[Frame] = []

    def collect(step: Step) -> None:
        position = step.frame(None).position
        frames.append(
            Frame(
                step.seq,
                step.seat,
                None if step.action is None else to_json(step.action),
                [to_json(e) for e in step.events],
                to_json(position.view),
                position.to_act,
                position.finished,
            )
        )

    # raises RecordError on any difference or an unrevealed seed
    report = replay(record, "record", visitors=[collect])
    seed = record.seed
    assert seed is not None  # replay refuses a record whose seed is not revealed
    entry = registry.get(record.game)
    options = entry.game.parse_options(record.options)
    return Replay(
        game=entry.id,
        name=entry.name,
        options=to_json(options),
        seats=[{"name": s.name, "agent": s.agent} for s in record.seats],
        seed=str(seed),
        commitment=seeds.commitment(
            seed,
            entry.id,
            record.rules_version,
            to_json(options),
            dice=report.dice_scheme,
            entropy=record.entropy,
        ),
        results=record.results,
        frames=frames,
    )


class ReviewAnswer(msgspec.Struct, kw_only=True):
    """``POST /api/review``: the review (None while its table is being built), and
    ``build``: the state of the background build it waits for ("building", "ready",
    "failed"; None when nothing is missing)."""

    review: Any = None
    build: str | None = None


def review_answer(text: str) -> tuple[ReviewAnswer, tuple[str, str] | None]:
    """Review a record's text; a missing table is named for a background build: the
    whole review waits for one it cannot do without (Wurfeltod's value table), a review
    with fewer measures is sent meanwhile (the Decathlon's win table)."""
    from gamenight.core.errors import BuildNeededError
    from gamenight.core.i18n import language
    from gamenight.core.review import in_language, review

    record = parse_record(text.splitlines(), "record")
    try:
        found = in_language(review(record), language())  # the request's language
    except BuildNeededError:
        return ReviewAnswer(build="building"), (record.game, "")
    if found.waiting is not None:
        return ReviewAnswer(review=found, build="building"), (record.game, found.waiting)
    return ReviewAnswer(review=found), None


def games_fallback() -> str:
    """The games as escaped HTML, for a page seen without JavaScript."""
    items = "".join(
        f"<li><b>{html.escape(e.name)}</b>: {html.escape(e.game.info.summary)}</li>"
        for e in registry.available()
    )
    return f"<p>gamenight needs JavaScript to play in the browser. The games:</p><ul>{items}</ul>"


def room_fallback(name: str, info: Any) -> str:
    """A room's public facts as escaped HTML (names are text, never markup)."""
    seats = "".join(
        f"<li>{s.seat + 1}: "
        + html.escape(s.name or (f"Bot {s.bot}" if s.kind == "bot" else "Open seat"))
        + "</li>"
        for s in info.seats
    )
    seed = f"<p>Seed: {html.escape(info.seed)}</p>" if info.seed else ""
    notes = "".join(f"<p>{html.escape(note)}</p>" for note in info.notes)
    return (
        f"<p>{html.escape(name)}: {html.escape(info.status)}. "
        "Playing needs JavaScript.</p>"
        f"{notes}<ul>{seats}</ul><p>Commitment: {html.escape(info.commitment)}</p>{seed}"
    )


def rules_language(query: str | None, accept_language: str | None) -> str:
    """The rules page's language: ``?lang=`` if given (a LanguageError if it names no
    language gamenight speaks), else the browser's ``Accept-Language``.

    >>> rules_language(None, "pl-PL,pl;q=0.9,en;q=0.8"), rules_language("de", "pl")
    ('pl', 'de')
    """
    return check_language(query) if query is not None else negotiate(accept_language)


def _language_links(game: str, shown: str, available: tuple[str, ...]) -> str:
    """Links to the rules in the other languages, each named in its own language."""
    items = "".join(
        f'<li><a href="/rules?game={html.escape(game)}&amp;lang={lang}" hreflang="{lang}" '
        f'lang="{lang}">{html.escape(NAMES[lang])}</a></li>'
        for lang in available
        if lang != shown
    )
    if not items:
        return ""
    return (
        '<nav class="rules-langs" aria-label="Language" data-i18n-label="lang.label">'
        f"<ul>{items}</ul></nav>"
    )


def rules_main(game: str, lang: str = "en") -> tuple[str, str, int, str]:
    """The rules page's title, ``<main>`` content, status and language for game id
    ``game`` in ``lang``: the game's name as the ``h1``, a way back to the lobby, links
    to the rules in the other languages, the player's rules (markdown-it, raw HTML
    escaped: :mod:`gamenight.web.rules`). A game without rules in ``lang`` shows the
    English ones (and says so in ``<html lang>``). The title and the rules carry their
    own ``lang`` too: the page's words around them are in the page's language, which
    the page's script chooses. Unknown game: 404 and a short note."""
    back = '<p class="rules-back"><a href="/{}" data-i18n="{}">{}</a></p>'
    try:
        entry = registry.get(game)
        shown, text = entry.rules_in(lang)
    except GamenightError:
        body = '<h1 data-i18n="rules.missing">No rules for this game.</h1>' + back.format(
            "", "nav.lobby", "Back to the lobby"
        )
        return "gamenight rules", body, 404, "en"
    # the game's name in the rules' language: a translation's own title (English: the
    # registry's name, which a plug-in's rules.md need not repeat)
    name = html.escape((shown != "en" and rules_title(text)) or entry.name)
    link = back.format(f"?game={html.escape(entry.id)}", "rules.back", "Back to the lobby")
    body = (
        f"{link}{_language_links(entry.id, shown, entry.rules_languages())}"
        f'<h1 id="rules-title" data-game="{html.escape(entry.id)}" lang="{shown}">{name}</h1>'
        f'<article class="rules-text" aria-labelledby="rules-title" lang="{shown}">'
        f"{rules_html(text)}</article>"
    )
    return f"{name} · rules · gamenight", body, 200, shown


def with_language(text: str, accept_language: str | None) -> str:
    """A page's ``<html lang="en">`` made the language negotiated from the browser's
    ``Accept-Language``. The page's script may still choose another (the switcher's
    choice, ``?lang=``: js/i18n.js).

    >>> with_language('<html lang="en">', "pl,en;q=0.5")
    '<html lang="pl">'
    """
    lang = languages.negotiate(accept_language)
    return text.replace('<html lang="en">', f'<html lang="{lang}">', 1)


class Language(msgspec.Struct, frozen=True):
    """A language the pages speak, named in itself (the switcher's choices)."""

    code: str
    name: str


def game_vocabulary(game: str, lang: str) -> dict[str, str] | None:
    """Game ``game``'s vocabulary in ``lang`` (one of :data:`languages.LANGUAGES`, exactly:
    the pseudo-locale is the tests' own), or None for an unknown game or language.

    >>> game_vocabulary("decathlon", "de")["dec.event.shot-put"]
    'Kugelstoßen'
    >>> game_vocabulary("decathlon", "fr") is None, game_vocabulary("chess", "de") is None
    (True, True)
    """
    if lang not in languages.LANGUAGES:
        return None
    try:
        return vocabulary(game, lang)
    except GamenightError:
        return None


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether an ``Accept-Encoding`` takes gzip (not refused by ``q=0``).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip(None)
    (True, False, False)
    >>> accepts_gzip("*"), accepts_gzip("identity")
    (True, False)
    """
    for part in (accept_encoding or "").lower().split(","):
        name, _, params = part.partition(";")
        if name.strip() in ("gzip", "*"):
            q = params.strip().removeprefix("q=").strip() if "q=" in params else "1"
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


def file_response(
    request: Request[Any, Any, Any], found: assets.Asset, cache_control: str
) -> Response[bytes]:
    """One file of the bundle: gzipped if the browser takes it, 304 for an ETag it has."""
    headers = {
        "Cache-Control": cache_control,
        "ETag": found.etag,
        "Vary": "Accept-Encoding",
    }
    if request.headers.get("if-none-match") == found.etag:
        return Response(b"", status_code=304, media_type=found.media_type, headers=headers)
    body = found.body
    if found.gzipped is not None and accepts_gzip(request.headers.get("accept-encoding")):
        body, headers["Content-Encoding"] = found.gzipped, "gzip"
    return Response(body, media_type=found.media_type, headers=headers)


def route_handlers(page_headers: Mapping[str, str]) -> list[BaseRouteHandler | Router]:
    """The front end's routes; ``page_headers`` (the CSP...) go on every page, which is
    never cached (``no-cache``: it names the bundle's version, which an upgrade changes)."""
    headers = {**page_headers, "Vary": "Accept-Language", "Cache-Control": "no-cache"}
    made: list[assets.Bundle] = []

    def bundle() -> assets.Bundle:
        """The files, gathered on first use (not at start: that imports every game)."""
        if not made:
            made.append(assets.bundle())
        return made[0]

    def page(
        name: str,
        request: Request[Any, Any, Any],
        fallback: str = "",
        status: int = 200,
        game: str | None = None,
    ) -> Response[bytes]:
        text = bundle().page_text(PAGES[name], game)
        text = with_language(text, request.headers.get("accept-language"))
        if name == "room":  # where invite links point (the server's --public-url...)
            base = getattr(request.app.state, "invite_base", None)
            shown = "" if base is None else html.escape(base(request), quote=True)
            text = text.replace(
                "<!--invite-->", f'<meta name="gamenight-invite" content="{shown}">'
            )
        if fallback:  # for browsers without JavaScript (and curl): escaped plain facts
            text = text.replace("<!--fallback-->", f"<noscript>{fallback}</noscript>", 1)
        return Response(
            text.encode("utf-8"), media_type=MediaType.HTML, headers=headers, status_code=status
        )

    @get("/", include_in_schema=False, sync_to_thread=False)
    def lobby_page(request: Request[Any, Any, Any]) -> Response[bytes]:
        return page("lobby", request, games_fallback())

    @get("/r/{code:str}", include_in_schema=False)
    async def room_page(request: Request[Any, Any, Any], code: FromPath[str]) -> Response[bytes]:
        services = getattr(request.app.state, "services", None)  # the server's rooms, once up
        hub = None if services is None else await services()
        room = None if hub is None else await hub.room(code)
        if hub is not None and room is None:
            return page("room", request, "<p>There is no such room.</p>", status=404)
        fallback = "" if room is None else room_fallback(room.entry.name, room.info())
        return page("room", request, fallback, game=None if room is None else room.entry.id)

    @get("/account", include_in_schema=False, sync_to_thread=False)
    def account_page(request: Request[Any, Any, Any]) -> Response[bytes]:
        return page("account", request)

    @get("/replay", include_in_schema=False, sync_to_thread=False)
    def replay_page(request: Request[Any, Any, Any]) -> Response[bytes]:
        return page("replay", request)

    @get("/rules", include_in_schema=False, sync_to_thread=False)
    def rules_page(
        request: Request[Any, Any, Any],
        game: FromQuery[str] = "",
        lang: FromQuery[str | None] = None,
    ) -> Response[bytes]:
        try:
            wanted = rules_language(lang, request.headers.get("accept-language"))
        except LanguageError as exc:
            title, status, shown = "gamenight rules", 400, "en"
            body = f'<h1 data-i18n="rules.missing">{html.escape(str(exc))}</h1>'
        else:
            title, body, status, shown = rules_main(game, wanted)
        text = bundle().page_text(PAGES["rules"])
        text = text.replace('<html lang="en">', f'<html lang="{shown}">', 1)
        text = text.replace("<title>gamenight rules</title>", f"<title>{title}</title>", 1)
        text = text.replace("<!--rules-->", body, 1)
        vary = {"Vary": "Accept-Language", "Content-Language": shown}
        return Response(
            text.encode("utf-8"),
            media_type=MediaType.HTML,
            headers={**headers, **vary},
            status_code=status,
        )

    @get(
        "/api/languages",
        summary="The languages the pages speak, each named in itself",
        sync_to_thread=False,
        responses=get_errors(),
        cache_control=CacheControlHeader(max_age=3600, public=True),
    )
    def languages_list() -> list[Language]:
        return [Language(code, languages.NAMES[code]) for code in languages.LANGUAGES]

    @get(
        "/api/vocabulary/{lang:str}/{game:str}",
        summary="A game's shared terms (names of the game, events, boxes, options) in a language",
        sync_to_thread=False,
        responses=get_errors(),
    )
    def vocabulary_terms(lang: FromPath[str], game: FromPath[str]) -> Response[Any]:
        """Every term of the game by its message key (English where a catalogue lacks one):
        the browser merges them into its catalogue (js/i18n.js loadGameMessages)."""
        terms = game_vocabulary(game, lang)
        if terms is None:
            problem = ReplayProblem("not_found", f"no vocabulary for {lang[:20]!r}/{game[:40]!r}")
            return Response(problem, status_code=404)
        return Response(terms, headers={"Cache-Control": "public, max-age=3600"})

    @get("/sw.js", include_in_schema=False, sync_to_thread=False)
    def service_worker() -> Response[bytes]:
        """The service worker (push notifications, docs/notifications.md), at the root so
        that its scope is the whole site; revalidated, so an upgrade reaches it."""
        return Response(
            bundle().files["sw.js"].body,
            media_type="text/javascript",
            headers={"Cache-Control": "no-cache"},
        )

    @get("/favicon.ico", include_in_schema=False, sync_to_thread=False)
    def favicon() -> Response[bytes]:
        """The site icon (an SVG) for a browser that asks /favicon.ico by itself."""
        return Response(
            bundle().files["img/icon.svg"].body,
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    @post(
        "/api/replay",
        summary="Verify a JSONL record and return every step's spectator view",
        status_code=200,
        request_max_body_size=MAX_RECORD_BYTES,
        sync_to_thread=True,
        opt={"media_types": RECORD_MEDIA_TYPES},  # the server's body check (server.guard)
        operation_class=ReplayOperation,
        responses={
            status: ResponseSpec(ReplayProblem, description=codes, generate_examples=False)
            for status, codes in REPLAY_ERRORS.items()
        },
    )
    def replay_record(request: Request[Any, Any, Any], body: RawBody) -> Response[Any]:
        del request
        try:
            result: Any = replay_frames(body.decode("utf-8", errors="strict"))
            status = 200
        except UnicodeDecodeError:
            result, status = ReplayProblem("bad_record", "the record is not UTF-8 text"), 400
        except GamenightError as exc:
            result, status = ReplayProblem("bad_record", said(exc)), 400
        return Response(result, status_code=status)

    @post(
        "/api/review",
        summary="Review a finished game's JSONL record: what each decision cost (issue 42)",
        status_code=200,
        request_max_body_size=MAX_RECORD_BYTES,
        opt={"media_types": RECORD_MEDIA_TYPES},  # the server's body check (server.guard)
        operation_class=ReplayOperation,
        responses={
            status: ResponseSpec(ReplayProblem, description=codes, generate_examples=False)
            for status, codes in REPLAY_ERRORS.items()
        },
    )
    async def review_record(request: Request[Any, Any, Any], body: RawBody) -> Response[Any]:
        """The review; a table the exact values need and this server lacks is built in
        the background (as for bots) and the answer says so (``building``)."""
        try:
            text = body.decode("utf-8", errors="strict")
            answer, missing = await asyncio.to_thread(review_answer, text)
        except UnicodeDecodeError:
            problem = ReplayProblem("bad_record", "the record is not UTF-8 text")
            return Response(problem, status_code=400)
        except GamenightError as exc:
            return Response(ReplayProblem("bad_record", said(exc)), status_code=400)
        if missing is not None:
            services = getattr(request.app.state, "services", None)  # the server's bot pool
            hub = None if services is None else await services()
            if hub is not None:
                game, target = missing
                answer.build = hub.bots.build(registry.get(game), target).state
        return Response(answer)

    @get("/static/{path:path}", include_in_schema=False, sync_to_thread=False)
    def plain_file(request: Request[Any, Any, Any], path: FromPath[str]) -> Response[bytes]:
        """A file by its plain name: revalidated on every use (``no-cache``, ``ETag``)."""
        found = bundle().files.get(path.lstrip("/"))
        if found is None:
            raise NotFoundException()
        return file_response(request, found, assets.REVALIDATE)

    @get("/v/{version:str}/static/{path:path}", include_in_schema=False, sync_to_thread=False)
    def versioned_file(
        request: Request[Any, Any, Any], version: FromPath[str], path: FromPath[str]
    ) -> Response[bytes]:
        """A file of the bundle's ``version``: cached for good. Another version's (a page
        loaded before an upgrade) gets today's file, revalidated, rather than nothing."""
        made = bundle()
        found = made.files.get(path.lstrip("/"))
        if found is None:
            raise NotFoundException()
        cache = assets.IMMUTABLE if version == made.version else assets.REVALIDATE
        return file_response(request, found, cache)

    return [
        lobby_page,
        room_page,
        replay_page,
        account_page,
        rules_page,
        languages_list,
        vocabulary_terms,
        favicon,
        service_worker,
        replay_record,
        review_record,
        plain_file,
        versioned_file,
    ]
