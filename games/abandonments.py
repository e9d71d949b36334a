"""Abandoned rated Parties: a player whose seat went to a bot for good before the end.

Three ways lead here, each recorded where it happens, inside the table's locked transaction:

* ``left``: the player left a started rated table (``games.lobby.leave_table``);
* ``resigned``: the player resigned it (``games.resignations.resign_partie``): the others play
  on against a bot just the same;
* ``timeout``: the player's clock ran out (``games.clocks``: a stand-in bot played for them)
  and they were still away when the Partie finished (``games.deals.finish_partie``). A single
  slow turn the player comes back from is not an abandonment.

One row per (player, Partie) (``one_abandonment_per_partie``): retries, a second way out of the
same Partie or a repeated sweep record nothing more. Casual tables record nothing. What the
record costs (a waiting time before the next rated game) is decided by
``ratings.abandon_cooldown`` from ``games.selectors.abandonment_times`` (docs/ratings.md, "Leaving rated
games").
"""

from __future__ import annotations

from games.models import Abandonment, Partie, Seat, Table


def record_abandonment(table: Table, user_id: int | None, kind: str) -> bool:
    """Record that ``user_id`` abandoned the Partie of the (locked) ``table``, once.

    Returns True when this call recorded it. Nothing happens at a casual table, before the
    Partie exists, or for a seat without a human."""
    if user_id is None or not table.rated:
        return False
    partie_id = Partie.objects.filter(table=table).values_list("pk", flat=True).first()
    if partie_id is None:
        return False
    _row, created = Abandonment.objects.get_or_create(
        user_id=user_id, partie_id=partie_id, defaults={"kind": kind}
    )
    return created


def record_timeouts_at_finish(table: Table, seats: list[Seat]) -> int:
    """At the end of a rated Partie: every player still away (their clock ran out and a bot
    played on for them) abandoned it. Returns how many were recorded now."""
    return sum(
        record_abandonment(table, seat.user_id, Abandonment.Kind.TIMEOUT)
        for seat in seats
        if seat.user_id is not None and seat.away
    )
