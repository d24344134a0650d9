"""The notifications' HTTP API (docs/protocol.md, "Notifications"; docs/notifications.md).

Who asks: the signed-in account (its session cookie), or a guest's seat (``room`` and
``seat`` in the query, its seat token as ``Authorization: Bearer TOKEN``). Every
state-changing request passes the app's Origin and Content-Type checks (server/guard.py).

* ``GET /api/notify/vapid`` — the server's VAPID public key (``applicationServerKey``);
* ``GET /api/notify/subscriptions`` — the subscriptions of the account or the seat;
* ``POST /api/notify/subscriptions`` — add one (``email``, ``push``, ``webhook``); a
  webhook's answer holds its HMAC secret, shown this once;
* ``DELETE /api/notify/subscriptions/{id}`` — remove one;
* ``POST /api/notify/unsubscribe?token=…`` — the link in every message, without signing
  in (also as a one-click ``List-Unsubscribe-Post`` form); ``GET /notify/unsubscribe``
  is the page with its button (a GET changes nothing: mail scanners open links).
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import FromPath, FromQuery, JSONBody

from gamenight.core.i18n import _, language
from gamenight.core.languages import LANGUAGES
from gamenight.server.faults import RoomError
from gamenight.server.guard import error_responses
from gamenight.server.tokens import new_token, token_hash

if TYPE_CHECKING:  # SQLAlchemy loads with the rooms
    from gamenight.server.notify.deliver import Notifier
    from gamenight.server.notify.store import NotifyStore, Sub

MAX_SUBS = 10  # per account or seat
EMAIL = re.compile(r"[^@\s<>\"',;]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}")
FORM_TYPES = ("application/x-www-form-urlencoded", "application/json")
# the unsubscribe pages: no script, no style, a form posting to this site only
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",  # the token is in the URL
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
}


class Subscribe(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body of ``POST /api/notify/subscriptions``: ``target`` is an e-mail address,
    a PushSubscription's JSON (as ``PushSubscription.toJSON()`` makes it) or a URL."""

    channel: Literal["email", "push", "webhook"]
    target: Annotated[str, msgspec.Meta(max_length=2000)]
    lang: Annotated[str, msgspec.Meta(max_length=8)] = ""  # "": the request's language


class Subscription(msgspec.Struct, frozen=True):
    id: int
    channel: str
    target: str  # an address, a push service's host, a URL
    lang: str
    room: str | None = None
    seat: int | None = None


class Subscribed(msgspec.Struct, frozen=True):
    subscription: Subscription
    unsubscribe: str  # a link that ends it without signing in
    secret: str | None = None  # a webhook's HMAC key: shown this once


class Vapid(msgspec.Struct, frozen=True):
    public_key: str  # base64url, the browser's applicationServerKey


class Unsubscribed(msgspec.Struct, frozen=True):
    unsubscribed: bool


class Owner(msgspec.Struct, frozen=True):
    account_id: int | None
    room_id: int | None
    seat: int | None
    code: str | None


async def notifier_of(request: Request[Any, Any, Any]) -> Notifier:
    """The app's notifier (made with the rooms: server/app.py)."""
    await request.app.state.services()  # the storage is up
    found: Notifier | None = getattr(request.app.state, "notifier", None)
    if found is None:
        raise RoomError(503, "unavailable", _("notifications are not running on this server"))
    return found


def _store(notifier: Notifier) -> NotifyStore:
    return notifier.store


async def _owner(request: Request[Any, Any, Any], store: NotifyStore) -> Owner:
    code = request.query_params.get("room")
    seat = request.query_params.get("seat")
    if code is not None or seat is not None:
        auth = request.headers.get("authorization", "")
        token = auth[7:].strip() if auth.lower().startswith("bearer ") else ""
        if not code or seat is None or not seat.isdigit() or not token or len(token) > 200:
            raise RoomError(401, "no_seat", _("a guest's seat needs room, seat and its token"))
        room_id = await store.seat_of_token(code[:40], int(seat[:3]), token_hash(token))
        if room_id is None:
            raise RoomError(404, "no_seat", _("not a human seat of this room"))
        return Owner(None, room_id, int(seat), code)
    from gamenight.server.accounts.routes import accounts_of

    account = await (await accounts_of(request)).signed_in(request)
    if account is None:
        raise RoomError(401, "not_signed_in", _("sign in first, or name your seat"))
    return Owner(account.id, None, None, None)


def _shown(sub: Sub, code: str | None) -> Subscription:
    target = sub.target
    if sub.channel == "push":  # the endpoint is a capability: only its host is shown
        from urllib.parse import urlsplit

        target = urlsplit(json.loads(sub.target).get("endpoint", "")).hostname or ""
    return Subscription(sub.id, sub.channel, target, sub.lang, code, sub.seat)


@get(
    "/api/notify/vapid",
    summary="The server's VAPID public key (Web Push)",
    responses=error_responses("GET"),
)
async def vapid(request: Request[Any, Any, Any]) -> Vapid:
    from gamenight.server.notify.push import public_key

    notifier = await notifier_of(request)
    return Vapid(public_key(await notifier.vapid()))


@get(
    "/api/notify/subscriptions",
    summary="The notification subscriptions of an account or a seat",
    responses=error_responses("GET", 401),
)
async def list_subscriptions(request: Request[Any, Any, Any]) -> list[Subscription]:
    store = _store(await notifier_of(request))
    owner = await _owner(request, store)
    subs = await store.subs_of(account_id=owner.account_id, room_id=owner.room_id, seat=owner.seat)
    return [_shown(s, owner.code) for s in subs]


async def _target(data: Subscribe, allow_private: bool) -> str:
    """The subscription's target, checked: an address, or a URL on no private network
    (its host resolved now too; each delivery resolves it again)."""
    from gamenight.server.notify import push, targets

    text = data.target.strip()
    if data.channel == "email":
        if not EMAIL.fullmatch(text) or len(text) > 254:
            raise RoomError(400, "bad_request", _("that is not an e-mail address"))
        return text
    try:
        if data.channel == "push":
            checked = push.check_subscription(text, allow_private=allow_private)
            url, target = checked["endpoint"], json.dumps(checked)
        else:
            url = target = targets.check_url(text, allow_private=allow_private)
        await asyncio.to_thread(targets.screen, url, allow_private=allow_private)
    except (push.BadSubscription, targets.TargetError) as exc:
        raise RoomError(400, "bad_request", str(exc)) from None
    return target


@post(
    "/api/notify/subscriptions",
    summary="Subscribe to notifications",
    status_code=201,
    responses=error_responses("POST", 401),
)
async def add_subscription(
    request: Request[Any, Any, Any], data: JSONBody[Subscribe]
) -> Subscribed:
    from gamenight.server.notify.deliver import unsubscribe_url
    from gamenight.server.notify.hook import new_secret

    notifier = await notifier_of(request)
    store = _store(notifier)
    owner = await _owner(request, store)
    lang = data.lang or language()
    if lang not in LANGUAGES:
        raise RoomError(400, "bad_request", _("no such language: {lang}").format(lang=lang[:8]))
    target = await _target(data, notifier.channels.allow_private)
    have = await store.subs_of(account_id=owner.account_id, room_id=owner.room_id, seat=owner.seat)
    if len(have) >= MAX_SUBS:
        raise RoomError(409, "too_many", _("at most {n} subscriptions").format(n=MAX_SUBS))
    if data.channel == "email" and not notifier.channels.smtp:
        raise RoomError(409, "no_channel", _("this server sends no e-mail"))
    secret = new_secret() if data.channel == "webhook" else ""
    token = new_token()
    sub = await store.add(
        account_id=owner.account_id,
        room_id=owner.room_id,
        seat=owner.seat,
        channel=data.channel,
        target=target,
        secret=secret,
        lang=lang,
        unsub_hash=token_hash(token),
    )
    link = unsubscribe_url(notifier.channels.base_url, token)
    return Subscribed(_shown(sub, owner.code), link, secret or None)


@delete(
    "/api/notify/subscriptions/{sub_id:int}",
    summary="Remove a subscription",
    status_code=200,
    responses=error_responses("DELETE", 401),
)
async def remove_subscription(
    request: Request[Any, Any, Any], sub_id: FromPath[int]
) -> Unsubscribed:
    store = _store(await notifier_of(request))
    owner = await _owner(request, store)
    gone = await store.remove(
        sub_id, account_id=owner.account_id, room_id=owner.room_id, seat=owner.seat
    )
    if not gone:
        raise RoomError(404, "not_found", _("there is no such subscription"))
    return Unsubscribed(True)


@post(
    "/api/notify/unsubscribe",
    summary="Unsubscribe by a message's link (no sign-in)",
    status_code=200,
    responses=error_responses("POST"),
    opt={"media_types": FORM_TYPES},
)
async def unsubscribe(request: Request[Any, Any, Any], token: FromQuery[str]) -> Response[bytes]:
    """JSON if asked for (``Accept`` or the body's type), else a page saying what was done."""
    store = _store(await notifier_of(request))
    done = len(token) <= 200 and await store.unsubscribe(token_hash(token))
    asked = request.headers.get("accept", "") + request.headers.get("content-type", "")
    if "json" in asked:
        return Response(msgspec.json.encode(Unsubscribed(done)), media_type="application/json")
    text = (
        _("You will get no more notifications there.")
        if done
        else _("This link has been used already, or its subscription is gone.")
    )
    return Response(_page(text, ""), media_type="text/html", headers=PAGE_HEADERS)


def _page(text: str, form: str) -> bytes:
    e = html.escape
    return (
        f'<!doctype html><html lang="{e(language())}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<title>gamenight</title></head><body>"
        f"<p>{e(text)}</p>{form}</body></html>\n"
    ).encode()


@get("/notify/unsubscribe", summary="The unsubscribe page", include_in_schema=False)
async def unsubscribe_page(token: FromQuery[str]) -> Response[bytes]:
    e = html.escape
    form = (
        f'<form method="post" action="/api/notify/unsubscribe?token={e(token[:200])}">'
        '<input type="hidden" name="List-Unsubscribe" value="One-Click">'
        f'<button type="submit">{e(_("Unsubscribe"))}</button></form>'
    )
    text = _("Stop the notifications of this subscription?")
    return Response(_page(text, form), media_type="text/html", headers=PAGE_HEADERS)


ROUTES = [
    vapid,
    list_subscriptions,
    add_subscription,
    remove_subscription,
    unsubscribe,
    unsubscribe_page,
]
