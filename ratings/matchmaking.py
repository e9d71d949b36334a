"""Ranked matchmaking: form tables of four close ratings from a waiting queue.

Pure and deterministic (same queue and ``now`` give the same tables), so a periodic task
can call it and tests can pin it down. Rules, all parameters in ``MatchmakingParams``:

- Each waiting player accepts opponents within a rating *window* that widens with the
  wait: ``window(wait) = min(base_window + widen_per_minute * wait / 60, max_window)``.
  Two players can share a table when each lies in the other's window, i.e. when
  ``|r_a - r_b| <= min(window_a, window_b)``, and (with ``distinct_ips``) their IPs differ.
- Tables of 4 are preferred. A player who has waited ``odd_size_after`` seconds may also
  be seated at a table of 3, or join a freshly formed table of 4 to make 5.
- Nobody waits forever: once a player has waited ``max_wait`` seconds they are *overdue*
  and matchable with everyone; an overdue player is seated first, with the closest ratings
  available, as soon as at least two others are waiting. Windows do not bind at a table
  that holds an overdue player (only the IP rule does).

Priority goes to the longest wait; ties are broken by rating distance, then by who joined
first, then by player id, so the outcome never depends on the order of the input list.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class QueueEntry:
    """A player waiting for a ranked table; ``joined_at`` in POSIX seconds."""

    player_id: Hashable
    rating: float
    joined_at: float
    ip: str | None = None


@dataclass(frozen=True)
class MatchmakingParams:
    """Matchmaking thresholds (Elo points and seconds)."""

    base_window: float = 100.0
    widen_per_minute: float = 50.0
    max_window: float = 600.0
    odd_size_after: float = 180.0
    max_wait: float = 600.0


DEFAULT_MATCHMAKING = MatchmakingParams()


def waited(entry: QueueEntry, now: float) -> float:
    """Seconds in the queue (never negative, even with a clock that runs behind)."""
    return max(0.0, now - entry.joined_at)


def is_overdue(
    entry: QueueEntry, now: float, params: MatchmakingParams = DEFAULT_MATCHMAKING
) -> bool:
    """Overdue players have waited long enough to be matched with anyone."""
    return waited(entry, now) >= params.max_wait


def rating_window(
    entry: QueueEntry, now: float, params: MatchmakingParams = DEFAULT_MATCHMAKING
) -> float:
    """Largest rating difference this player accepts now; infinite once overdue."""
    if is_overdue(entry, now, params):
        return math.inf
    wait = waited(entry, now)
    return min(params.base_window + params.widen_per_minute * wait / 60.0, params.max_window)


def _ips_clash(a: QueueEntry, b: QueueEntry) -> bool:
    return a.ip is not None and a.ip == b.ip


def compatible(
    a: QueueEntry,
    b: QueueEntry,
    now: float,
    params: MatchmakingParams = DEFAULT_MATCHMAKING,
    distinct_ips: bool = False,
) -> bool:
    """Whether two waiting players may share a table now."""
    if distinct_ips and _ips_clash(a, b):
        return False
    if is_overdue(a, now, params) or is_overdue(b, now, params):
        return True
    gap = abs(a.rating - b.rating)
    return gap <= min(rating_window(a, now, params), rating_window(b, now, params))


def _sort_key(entry: QueueEntry) -> tuple[float, str, str]:
    return (entry.joined_at, type(entry.player_id).__name__, repr(entry.player_id))


class _Round:
    """One matchmaking round's bookkeeping: who is seated and the tables formed."""

    def __init__(
        self, queue: Sequence[QueueEntry], now: float, params: MatchmakingParams, distinct: bool
    ) -> None:
        unique: dict[Hashable, QueueEntry] = {}
        for entry in sorted(queue, key=_sort_key):
            unique.setdefault(entry.player_id, entry)
        self.waiting = list(unique.values())
        self.now = now
        self.params = params
        self.distinct = distinct
        self.seated: set[Hashable] = set()
        self.tables: list[list[QueueEntry]] = []

    def unseated(self) -> list[QueueEntry]:
        return [e for e in self.waiting if e.player_id not in self.seated]

    def long_waiting(self, entry: QueueEntry) -> bool:
        return waited(entry, self.now) >= self.params.odd_size_after

    def fits(self, candidate: QueueEntry, members: list[QueueEntry], windows: bool) -> bool:
        if windows:
            return all(
                compatible(candidate, m, self.now, self.params, self.distinct) for m in members
            )
        return not self.distinct or not any(_ips_clash(candidate, m) for m in members)

    def by_closeness(self, anchor: QueueEntry) -> list[QueueEntry]:
        others = [e for e in self.unseated() if e.player_id != anchor.player_id]
        return sorted(others, key=lambda e: (abs(e.rating - anchor.rating), *_sort_key(e)))

    def grow(self, anchor: QueueEntry, size: int, windows: bool) -> list[QueueEntry]:
        """Greedily add the closest ratings that fit everyone already at the table."""
        members = [anchor]
        for candidate in self.by_closeness(anchor):
            if len(members) == size:
                break
            if self.fits(candidate, members, windows):
                members.append(candidate)
        return members

    def seat(self, members: list[QueueEntry]) -> None:
        self.tables.append(members)
        self.seated.update(m.player_id for m in members)


def _rescue_size(unseated_count: int) -> int:
    """Table size for an overdue player that never strands a remainder of one or two."""
    if unseated_count <= 5:
        return unseated_count
    return 3 if unseated_count == 6 else 4


def form_tables(
    queue: Sequence[QueueEntry],
    now: float,
    params: MatchmakingParams = DEFAULT_MATCHMAKING,
    distinct_ips: bool = False,
) -> list[list[Hashable]]:
    """Tables (lists of player ids) to start now; everyone else keeps waiting.

    A player id listed twice in the queue counts once (its earliest entry).
    """
    state = _Round(queue, now, params, distinct_ips)
    # 1. Overdue players first: the closest ratings available, windows waived.
    for anchor in state.waiting:
        if anchor.player_id in state.seated or not is_overdue(anchor, now, params):
            continue
        members = state.grow(anchor, _rescue_size(len(state.unseated())), windows=False)
        if len(members) >= 3:
            state.seat(members)
    # 2. Tables of four within everyone's window, longest wait first.
    for anchor in state.unseated():
        if anchor.player_id in state.seated:
            continue
        members = state.grow(anchor, 4, windows=True)
        if len(members) == 4:
            state.seat(members)
    # 3. After a long wait, a table of three ...
    for anchor in state.unseated():
        if anchor.player_id in state.seated or not state.long_waiting(anchor):
            continue
        members = state.grow(anchor, 3, windows=True)
        if len(members) == 3:
            state.seat(members)
    # 4. ... or a seat at a table of four just formed, which becomes five.
    for entry in state.unseated():
        if not state.long_waiting(entry):
            continue
        open_tables = [
            table
            for table in state.tables
            if len(table) == 4 and state.fits(entry, table, windows=True)
        ]
        if open_tables:
            best = min(
                open_tables,
                key=lambda t: abs(sum(m.rating for m in t) / len(t) - entry.rating),
            )
            best.append(entry)
            state.seated.add(entry.player_id)
    return [[m.player_id for m in table] for table in state.tables]
