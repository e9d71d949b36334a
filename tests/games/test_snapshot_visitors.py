"""A visitor without an account is a spectator, never the holder of a bot's seat.

A bot's seat has no user (``user_id`` None), and so has an anonymous visitor (``pk`` None):
matched naively, the visitor would be handed the bot's hand of a deal in progress."""

import pytest
from django.contrib.auth.models import AnonymousUser

from games import lobby, selectors
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_visitor_gets_the_spectators_view_of_a_table_with_bots():
    owner = UserFactory()
    table = lobby.create_table(owner=owner, size=4, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, by_user=owner)

    snapshot = selectors.build_snapshot(table.pk, AnonymousUser())

    assert snapshot["you"] == {"user_id": None, "seat": None, "role": "spectator"}
    assert snapshot["deal"]["hand"] == []
    assert selectors.seat_of_user(table.pk, AnonymousUser()) is None
    # The owner still sees their own hand: the fix only stops the None == None match.
    assert selectors.build_snapshot(table.pk, owner)["deal"]["hand"]
