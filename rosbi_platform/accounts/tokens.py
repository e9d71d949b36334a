"""Personal access tokens: create (the secret is returned once), revoke, authenticate.

A token is ``rosbi_`` followed by 32 random bytes (URL-safe base64); only its SHA-256 is
stored, so the database never holds a usable secret. ``last_used_at`` is written at most once
a minute per token, so a busy program does not turn every request into a write.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connections, router, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rosbi_platform import prepared
from rosbi_platform.accounts.models import AccessToken, Profile, User

TOKEN_PREFIX = "rosbi_"
SCOPES = tuple(AccessToken.Scope.values)
ALL_SCOPES = frozenset(SCOPES)
LAST_USE_RESOLUTION = dt.timedelta(minutes=1)
MAX_ACTIVE_TOKENS = 20


class TokenError(ValueError):
    """A refused token action, with a sentence for people."""


@dataclass(frozen=True)
class NewToken:
    """The stored token and its secret; the secret exists only in this object."""

    token: AccessToken
    secret: str


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def create_token(user: User, name: str, scopes: Iterable[str]) -> NewToken:
    """A new token for ``user`` with the given scopes (a subset of ``SCOPES``)."""
    name = (name or "").strip()
    chosen = sorted(set(scopes), key=SCOPES.index) if set(scopes) <= ALL_SCOPES else None
    if not name:
        raise TokenError(_("Give the token a name, so you know later what uses it."))
    if len(name) > 60:
        raise TokenError(_("A token name has at most 60 characters."))
    if not chosen:
        raise TokenError(_("Choose at least one scope: read, play or tournament:write."))
    with transaction.atomic():
        active = AccessToken.objects.select_for_update().filter(user=user, revoked_at=None)
        if len(active) >= MAX_ACTIVE_TOKENS:
            raise TokenError(
                _("You have %(count)d active tokens: revoke one first.")
                % {"count": MAX_ACTIVE_TOKENS}
            )
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = AccessToken.objects.create(
            user=user,
            name=name,
            prefix=secret[: len(TOKEN_PREFIX) + 6],
            secret_hash=hash_secret(secret),
            scopes=chosen,
        )
    return NewToken(token=token, secret=secret)


def revoke_token(user: User, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens at once; False when it was revoked already."""
    token = AccessToken.objects.filter(user=user, pk=token_id).first()
    if token is None:
        raise TokenError(_("There is no such token."))
    updated = AccessToken.objects.filter(pk=token.pk, revoked_at=None).update(
        revoked_at=timezone.now()
    )
    return bool(updated)


def authenticate_token(secret: str) -> AccessToken | None:
    """The active token with this secret (its user and profile loaded), or None; notes the use.

    Every API request of a program runs this, so it is one prepared statement rather than an
    ORM query: compiling ``select_related`` SQL cost more CPU than the rest of a small
    request (``bench/api/inprocess.py``); see ``rosbi_platform.prepared``."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    alias = router.db_for_read(AccessToken)
    sql, parts = _token_statement()
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, [hash_secret(secret)])
        row = cursor.fetchone()
    if row is None:
        return None
    token, user, profile = prepared.instances(row, parts, alias)
    if not user.is_active:
        return None
    if profile is not None:
        user.profile = profile
    token.user = user
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at >= LAST_USE_RESOLUTION:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


@functools.cache
def _token_statement() -> tuple[str, list[prepared.Part]]:
    """``SELECT token.*, user.*, profile.*`` for an active token by its hash."""
    columns, parts = prepared.select_list([(AccessToken, "t"), (User, "u"), (Profile, "p")])
    user_pk = User._meta.pk.column
    sql = (
        f"SELECT {columns} FROM {AccessToken._meta.db_table} t "
        f'JOIN {User._meta.db_table} u ON u."{user_pk}" = '
        f't."{AccessToken._meta.get_field("user").column}" '
        f'LEFT JOIN {Profile._meta.db_table} p ON p."{Profile._meta.get_field("user").column}"'
        f' = u."{user_pk}" WHERE t."secret_hash" = %s AND t."revoked_at" IS NULL'
    )
    return sql, parts
