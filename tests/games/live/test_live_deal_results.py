"""The ``deal_finished`` frame says why a deal counts as it does (issue 29, defect 3).

A doubled deal's penalties (1/2/5 tricks become 2/4/10) or a slam's -8 are the engine's to
explain: the frame carries its ``settlement`` so the table says it in words.
"""

from __future__ import annotations

import pytest

from games import lobby
from games.engine import Partie as EnginePartie
from games.live.facts import settlement_facts
from games.models import Partie, TableEvent
from tests.games.factories import TableFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def finished_deal_frames(table_id: int) -> list[dict]:
    """The ``deal_finished`` events of a table as the websocket sends them."""
    return [
        event.as_message()["event"]
        for event in TableEvent.objects.filter(table_id=table_id).order_by("version")
        if event.kind == "deal_finished"
    ]


def test_every_deal_finished_frame_carries_the_engines_reason_for_its_count():
    owner = UserFactory()
    table = TableFactory(owner=owner, size=4, fill_with_bots=True, bot_level="random")
    lobby.start_table(table.pk, owner, seed=7)
    replayed = EnginePartie.from_record(Partie.objects.get(table=table).to_record())
    frames = finished_deal_frames(table.pk)
    assert len(frames) == 6
    for frame, deal in zip(frames, replayed.deals, strict=True):
        assert frame["settlement"] == settlement_facts(deal)
        assert frame["penalties"] == list(deal.penalties)
    doubled = [f for f in frames if f["settlement"] and f["settlement"]["kind"] == "doubled"]
    assert doubled, "seed 7 has a doubled deal"
    first = doubled[0]
    deal = replayed.deals[first["deal_number"]]
    # The seats named are the ones that took nothing, and every cost counted twice.
    assert first["settlement"]["seats"] == [s for s, p in enumerate(deal.penalties) if p == 0]
    assert all(p % 2 == 0 for p in first["penalties"])
    assert frames[3]["settlement"] is None  # the King of Hearts never doubles
