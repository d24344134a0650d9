"""Passwords, hashed with Argon2id (argon2-cffi's defaults: RFC 9106's second
recommended setting), never stored or logged as typed.

:func:`check` does the same work whether or not the account exists (it verifies against
a dummy hash), so a sign-in takes as long for an unknown name as for a wrong password.

>>> stored = hash_password("correct horse battery")
>>> stored.startswith("$argon2id$")
True
>>> check("correct horse battery", stored), check("wrong", stored), check("x", None)
(True, False, False)
"""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

MIN_CHARS = 10
MAX_CHARS = 200


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher()


@cache
def _dummy() -> str:
    return _hasher().hash("not a password anyone has: the work of a check")


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password``, as stored."""
    return _hasher().hash(password)


def check(password: str, stored: str | None) -> bool:
    """Whether ``password`` matches ``stored``; with nothing stored the same work is done
    and the answer is False."""
    try:
        return _hasher().verify(stored if stored else _dummy(), password) and bool(stored)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def problem(password: str) -> str | None:
    """Why ``password`` can't be used (one line), or None."""
    if not MIN_CHARS <= len(password) <= MAX_CHARS:
        return f"a password is {MIN_CHARS} to {MAX_CHARS} characters"
    return None
