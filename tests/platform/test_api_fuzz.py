"""Schemathesis fuzzes API v1 from its own OpenAPI schema, in-process through the WSGI app:
no 5xx, and every documented answer matches the schema (status, content type, body).

Reads run anonymously and with a token; writes with a token holding every scope. A few
examples per operation keep the run short (CI budget), over a database with one of each
thing the API shows.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from games import bot_turns, lobby
from rosbi_platform.accounts import tokens
from tests.games.factories import TableFactory, UserFactory
from tests.tournaments.factories import ClubFactory, MembershipFactory
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db]

CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]
FEW = settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)


@pytest.fixture
def api_schema():
    """The schema as the app serves it. The WSGI handler closes the database connection at
    the end of each request (``close_old_connections``), which would end the test's
    transaction; Django's own test client switches that off the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def api_token(db) -> str:
    """A token user with every scope, and one of each thing the API shows."""
    user = UserFactory(username="fuzzer")
    club = ClubFactory(slug="fuzz")
    MembershipFactory(club=club, user=user, role="organiser")
    Tournament.objects.create(
        club=club, name="Fuzz cup", slug="fuzz-cup", starts_at="2030-01-01T18:00:00Z"
    )
    lobby.create_table(owner=user, size=3)
    table = TableFactory(owner=user, size=3, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, user, seed=5)
    bot_turns.play_bot_turns(table.pk)
    return tokens.create_token(user, "fuzz", tokens.SCOPES).secret


def fuzz(schema, *, headers: dict[str, str] | None) -> list[str]:
    """Run every operation of ``schema`` with a few generated cases; the failures, by name.

    One loop over the operations (not schemathesis' pytest plugin, which does not run under
    pytest 9): each operation gets its own Hypothesis run of ``FEW`` examples."""
    failures = []
    calls: list[int] = []
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) > 10
    for operation in operations:

        @FEW
        @given(case=operation.as_strategy())
        def check(case) -> None:
            calls.append(case.call_and_validate(headers=headers, checks=CHECKS).status_code)

        try:
            check()
        except Exception as error:  # noqa: BLE001 - collected and reported together
            failures.append(f"{operation.label}: {type(error).__name__}: {error}"[:2000])
    assert len(calls) >= 2 * len(operations), "every operation was called"
    return failures


def test_reads_never_fail_and_match_the_schema(api_schema, api_token):
    reads = api_schema.include(method="GET")
    assert fuzz(reads, headers=None) == []
    assert fuzz(reads, headers={"Authorization": f"Bearer {api_token}"}) == []


def test_writes_never_fail_and_match_the_schema(api_schema, api_token):
    writes = api_schema.exclude(method="GET")
    assert fuzz(writes, headers={"Authorization": f"Bearer {api_token}"}) == []
