"""Passkeys (WebAuthn), with the ``webauthn`` library: sign-up and sign-in without a
password (issue 43).

A ceremony is two requests: ``.../options`` makes a challenge, kept in the database
(``challenges``, for five minutes) under the hash of a random handle that the browser
holds in an ``HttpOnly`` cookie, so any process of a cluster can finish it; ``.../verify``
takes the browser's answer, checks it against that challenge (once: the row is deleted
as it is read), this server's origin and relying party (the host name players open).
"""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

import msgspec
from litestar import Request, Response, post
from litestar.datastructures import Cookie
from litestar.params import JSONBody

from gamenight.core.confusables import name_keys
from gamenight.core.i18n import _
from gamenight.core.text import MAX_NAME_CHARS, TextError, check_text
from gamenight.server.accounts import passwords
from gamenight.server.accounts.routes import (
    SignedIn,
    _admit,
    _argon2,
    _refused,
    _start_session,
    accounts_of,
)
from gamenight.server.faults import RoomError
from gamenight.server.guard import error_responses, host_name
from gamenight.server.tokens import token_hash

CEREMONY = "gamenight_ceremony"
CEREMONY_SECONDS = 300
RP_NAME = "gamenight"


class NewName(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str


def _relying_party(request: Request[Any, Any, Any]) -> tuple[str, str]:
    """(rp id, origin): the host name and the origin the browser is on (the Host header
    passed the app's check; the scheme is the connection's, or the proxy's)."""
    host = request.headers.get("host", "")
    scheme = request.scope.get("scheme", "http")
    return host_name(host), f"{scheme}://{host}"


async def _keep(
    request: Request[Any, Any, Any], purpose: str, challenge: bytes, payload: str
) -> Cookie:
    from sqlalchemy import delete, insert
    from webauthn.helpers import bytes_to_base64url

    from gamenight.server.accounts.tables import CHALLENGES

    accounts = await accounts_of(request)
    handle = secrets.token_urlsafe(32)
    async with accounts.store.engine.begin() as conn:
        await conn.execute(delete(CHALLENGES).where(CHALLENGES.c.expires_at < time.time()))
        await conn.execute(
            insert(CHALLENGES),
            {
                "handle_hash": token_hash(handle),
                "purpose": purpose,
                "challenge": bytes_to_base64url(challenge),
                "payload": payload,
                "expires_at": time.time() + CEREMONY_SECONDS,
            },
        )
    return Cookie(
        key=CEREMONY,
        value=handle,
        max_age=CEREMONY_SECONDS,
        path="/api/account/passkey",
        httponly=True,
        samesite="strict",
        secure=request.scope.get("scheme") == "https",
    )


async def _take(request: Request[Any, Any, Any], purpose: str) -> tuple[bytes, str]:
    """The ceremony's challenge and payload, used up; a refusal if there is none."""
    from sqlalchemy import delete
    from webauthn.helpers import base64url_to_bytes

    from gamenight.server.accounts.tables import CHALLENGES

    handle = request.cookies.get(CEREMONY, "")
    accounts = await accounts_of(request)
    async with accounts.store.engine.begin() as conn:
        row = (
            await conn.execute(
                delete(CHALLENGES)
                .where(CHALLENGES.c.handle_hash == token_hash(handle))
                .where(CHALLENGES.c.purpose == purpose)
                .where(CHALLENGES.c.expires_at >= time.time())
                .returning(CHALLENGES.c.challenge, CHALLENGES.c.payload)
            )
        ).first()
    if row is None:
        raise RoomError(400, "bad_passkey", _("the passkey request expired: start again"))
    return base64url_to_bytes(row[0]), row[1]


def _json_response(text: str, cookie: Cookie) -> Response[bytes]:
    return Response(text.encode("utf-8"), media_type="application/json", cookies=[cookie])


@post(
    "/api/account/passkey/register/options",
    summary="Start making an account with a passkey",
    status_code=200,
    responses=error_responses("POST", 429),
)
async def register_options(
    request: Request[Any, Any, Any], data: JSONBody[NewName]
) -> Response[bytes]:
    from webauthn import generate_registration_options, options_to_json
    from webauthn.helpers.structs import (
        AuthenticatorSelectionCriteria,
        ResidentKeyRequirement,
        UserVerificationRequirement,
    )

    try:
        name = check_text(data.name, what=_("a name"), limit=MAX_NAME_CHARS)
    except TextError as exc:
        raise RoomError(400, "bad_name", str(exc)) from None
    keys = name_keys(name)
    accounts = await accounts_of(request)
    await _admit(accounts, request, keys[0])
    await _argon2(passwords.check, name, None)  # the work of a password sign-up, always
    if await accounts.store.by_keys(keys) is not None:
        raise _refused()  # as a taken name with a wrong password
    rp_id, _origin = _relying_party(request)
    options = generate_registration_options(
        rp_id=rp_id,
        rp_name=RP_NAME,
        user_name=name,
        user_id=secrets.token_bytes(16),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
    )
    cookie = await _keep(request, "register", options.challenge, json.dumps({"name": name}))
    return _json_response(options_to_json(options), cookie)


@post(
    "/api/account/passkey/register/verify",
    summary="Finish making an account with a passkey",
    status_code=201,
    responses=error_responses("POST", 429),
)
async def register_verify(
    request: Request[Any, Any, Any], data: JSONBody[dict[str, Any]]
) -> Response[SignedIn]:
    from sqlalchemy import insert
    from webauthn import verify_registration_response
    from webauthn.helpers import bytes_to_base64url
    from webauthn.helpers.exceptions import InvalidRegistrationResponse

    from gamenight.server.accounts.tables import PASSKEYS

    challenge, payload = await _take(request, "register")
    name = json.loads(payload)["name"]
    rp_id, origin = _relying_party(request)
    try:
        verified = verify_registration_response(
            credential=data,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
        )
    except (InvalidRegistrationResponse, ValueError, KeyError, TypeError) as exc:
        raise RoomError(
            400, "bad_passkey", _("the passkey was refused: {why}").format(why=str(exc)[:120])
        ) from None
    accounts = await accounts_of(request)
    try:
        account = await accounts.store.create(name, name_keys(name), None)
    except accounts.store.NameTaken:
        raise _refused() from None
    async with accounts.store.engine.begin() as conn:
        await conn.execute(
            insert(PASSKEYS),
            {
                "credential_id": bytes_to_base64url(verified.credential_id),
                "account_id": account,
                "public_key": bytes_to_base64url(verified.credential_public_key),
                "sign_count": verified.sign_count,
                "created_at": time.time(),
            },
        )
    return await _start_session(request, accounts, account, name, 201)


@post(
    "/api/account/passkey/signin/options",
    summary="Start signing in with a passkey",
    status_code=200,
    responses=error_responses("POST", 429),
)
async def signin_options(request: Request[Any, Any, Any]) -> Response[bytes]:
    from webauthn import generate_authentication_options, options_to_json
    from webauthn.helpers.structs import UserVerificationRequirement

    accounts = await accounts_of(request)
    await _admit(accounts, request, "passkey")
    rp_id, _origin = _relying_party(request)
    options = generate_authentication_options(
        rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
    )
    cookie = await _keep(request, "signin", options.challenge, "")
    return _json_response(options_to_json(options), cookie)


@post(
    "/api/account/passkey/signin/verify",
    summary="Finish signing in with a passkey",
    status_code=200,
    responses=error_responses("POST", 429),
)
async def signin_verify(
    request: Request[Any, Any, Any], data: JSONBody[dict[str, Any]]
) -> Response[SignedIn]:
    from sqlalchemy import select, update
    from webauthn import verify_authentication_response
    from webauthn.helpers import base64url_to_bytes
    from webauthn.helpers.exceptions import InvalidAuthenticationResponse

    from gamenight.server.accounts.tables import PASSKEYS

    challenge, _payload = await _take(request, "signin")
    accounts = await accounts_of(request)
    credential_id = str(data.get("id", ""))[:400]
    async with accounts.store.engine.connect() as conn:
        row = (
            await conn.execute(select(PASSKEYS).where(PASSKEYS.c.credential_id == credential_id))
        ).first()
    if row is None:
        raise _refused()
    rp_id, origin = _relying_party(request)
    try:
        verified = verify_authentication_response(
            credential=data,
            expected_challenge=challenge,
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=base64url_to_bytes(row.public_key),
            credential_current_sign_count=row.sign_count,
        )
    except (InvalidAuthenticationResponse, ValueError, KeyError, TypeError):
        raise _refused() from None
    async with accounts.store.engine.begin() as conn:
        await conn.execute(
            update(PASSKEYS)
            .where(PASSKEYS.c.credential_id == credential_id)
            .values(sign_count=verified.new_sign_count)
        )
    account = await accounts.store.by_id(row.account_id)
    if account is None:
        raise _refused()
    return await _start_session(request, accounts, account.id, account.name, 200)


ROUTES = [register_options, register_verify, signin_options, signin_verify]
