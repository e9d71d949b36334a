"""Rendered JSON of the API's hot reads, kept per data version.

A page of finished Parties, a leaderboard page and an event's standings cost 17-31 ms of CPU
to build and render, and the same few pages are asked for again and again (bots poll, every
client of a live event reads the same standings). Each is kept rendered in the shared cache
under a key that names every input of the answer: the data version it was built from (the
newest finished Partie, the leaderboard's numbering time, the standings version), the
caller when what they may see differs, and the query. A new version is a new key, so an
answer is never served after its data changed; what no version covers (a display name
changed since) shows after at most the key's lifetime.

Answers carry an ``ETag``; a client that sends it back in ``If-None-Match`` gets a 304.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

KEY_PREFIX = "api:json:"


def cache_key(parts: Iterable[object]) -> str:
    """One short key for the inputs of an answer (any length of query strings); the
    database's name keeps test runs and staging apart when they share a Redis."""
    named = (connection.settings_dict["NAME"], *parts)
    digest = hashlib.sha256("\x1f".join(str(part) for part in named).encode()).hexdigest()
    return KEY_PREFIX + digest[:40]


def cached_json(
    request: Request, parts: Iterable[object], build: Callable[[], Any], seconds: int
) -> HttpResponse:
    """The JSON of ``build()`` as DRF renders it, from the cache when these ``parts`` were
    rendered within ``seconds``; 304 when the client holds this very answer."""
    key = cache_key(parts)
    stored = cache.get(key)
    if stored is None:
        body = JSONRenderer().render(build())
        stored = (f'"{hashlib.sha256(body).hexdigest()[:32]}"', body)
        cache.set(key, stored, seconds)
    etag, body = stored
    if etag in _etags(request.META.get("HTTP_IF_NONE_MATCH", "")):
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    return response


def _etags(header: str) -> set[str]:
    return {tag.strip().removeprefix("W/") for tag in header.split(",") if tag.strip()}
