"""The suite's flush between transactional tests (tests/conftest.py ``empty_tables_by_delete``)
leaves what Django's TRUNCATE leaves: every table empty, then the content types and
permissions that post_migrate writes."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from tests.games.factories import TableFactory, UserFactory
from tests.ratings.factories import PlayerRatingFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_foreign_key_is_deferrable():
    """A DELETE of each table in any order is valid only if no key is checked before commit."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, conname FROM pg_constraint "
            "WHERE contype = 'f' AND NOT (condeferrable AND condeferred)"
        )
        assert cursor.fetchall() == []


def row_counts() -> dict[str, int]:
    counts = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.django_table_names(only_existing=True):
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def fill() -> None:
    owner = UserFactory()
    TableFactory(owner=owner)
    PlayerRatingFactory(user=owner)


def test_the_flush_leaves_what_truncate_leaves(monkeypatch):
    fill()
    assert connection.ops.sql_flush.deletes  # the suite's flush, not Django's TRUNCATE
    call_command("flush", verbosity=0, interactive=False)
    by_delete = row_counts()

    fill()
    monkeypatch.setattr(type(connection.ops), "sql_flush", connection.ops.sql_flush.truncate)
    call_command("flush", verbosity=0, interactive=False)
    by_truncate = row_counts()

    assert by_delete == by_truncate
    assert by_delete["games_table"] == by_delete["ratings_playerrating"] == 0
    assert ContentType.objects.filter(app_label="games", model="table").exists()


def test_a_flush_that_resets_sequences_still_truncates():
    sql = connection.ops.sql_flush(no_style(), ["games_table"], reset_sequences=True)
    assert sql[0].startswith("TRUNCATE")
