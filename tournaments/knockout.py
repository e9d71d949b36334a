"""Knockout tournaments: tables of the chosen size, the top k of each table advance.

Pure functions over plain values: no Django, no storage.

Rules (documented house rules of the platform)
----------------------------------------------
* Round sizes come from ``seating.table_sizes`` (preferred size, 3 or 5 allowed to make the
  numbers work). When at most ``final_max`` players are left (default: the largest allowed size)
  they play one final table.
* Round 1 is seeded serpentine: seeds 1..T go to tables 1..T, seeds T+1..2T to tables T..1,
  and so on, so the strongest players meet as late as possible.
* At each table players are ordered by penalty total (lower is better). **Ties, also on the
  cut, are broken by seed (the better, i.e. lower, seed goes first).** The first
  ``min(advance, size - 1)`` advance, so at least one player per table goes out.
* If that would leave fewer than three players (a Partie needs three), the best of the rest
  advance as wildcards, ordered by place at their table, then penalty, then seed.
* Later rounds are seeded serpentine again, by (place at the previous table, penalty, seed):
  table winners are spread over the tables, then the runners-up, and so on.
* The champion is the first player of the final table by the same order.

``build_bracket`` replays all of this from the seed list and the penalty totals entered so far
and returns plain data (rounds, tables, seats, who advanced, which table fed which), which
``bracket_svg`` draws: one column per round, one curve per advancing player, advancers in green,
wildcards starred, the champion's path in gold. The words it draws ("Round 2", "Final table")
come from a ``BracketLabels`` the caller passes in its visitor's language (English by default).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from tournaments.seating import serpentine, table_sizes

PlayerId = Hashable
MIN_PLAYERS = 3
MAX_TABLE = 6


@dataclass(frozen=True)
class KnockoutConfig:
    """Shape of the knockout: table sizes, how many advance per table, final table limit."""

    table_size: int = 4
    allowed: tuple[int, ...] = (3, 4, 5)
    advance: int = 2
    final_max: int | None = None

    @property
    def final_limit(self) -> int:
        """Largest field that plays a single final table."""
        return self.final_max if self.final_max is not None else max(self.allowed)


@dataclass
class BracketSeat:
    """One player at one knockout table; ``place`` is 0-based after the tie-break."""

    player: PlayerId | None
    seed: int | None = None
    penalty: float | None = None
    place: int | None = None
    advanced: bool = False
    wildcard: bool = False


@dataclass
class BracketTable:
    """A table of a round; ``sources`` names the previous-round table of each seat."""

    index: int
    seats: list[BracketSeat]
    sources: list[int | None] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return all(seat.penalty is not None for seat in self.seats)


@dataclass
class BracketRound:
    """A round of the bracket; ``final`` marks the last one (a single final table)."""

    number: int
    final: bool
    tables: list[BracketTable]


@dataclass
class Bracket:
    """The whole knockout as plain data for pages, exports and ``bracket_svg``."""

    rounds: list[BracketRound]
    champion: PlayerId | None = None


@dataclass(frozen=True)
class BracketLabels:
    """The words ``bracket_svg`` draws; pages pass them translated, the defaults are English."""

    round: Callable[[int], str] = "Round {}".format
    final: str = "Final"
    table: Callable[[int], str] = "Table {}".format
    final_table: str = "Final table"
    champion: Callable[[str], str] = "Champion: {}".format
    undecided: str = "to be decided"
    title: str = "Knockout bracket"

    def round_name(self, round_: BracketRound) -> str:
        return self.final if round_.final else self.round(round_.number)

    def table_name(self, round_: BracketRound, table: BracketTable) -> str:
        return self.final_table if round_.final else self.table(table.index + 1)


# ---------------------------------------------------------------------------------------------


def plan_rounds(entrants: int, config: KnockoutConfig | None = None) -> list[list[int]]:
    """Table sizes of every round, first round first, ending with the final table."""
    config = config or KnockoutConfig()
    if config.advance < 1:
        raise ValueError("at least one player per table must advance")
    if entrants < MIN_PLAYERS:
        raise ValueError(f"a knockout needs at least {MIN_PLAYERS} players")
    if not MIN_PLAYERS <= config.final_limit <= MAX_TABLE:
        raise ValueError(f"the final table must seat {MIN_PLAYERS} to {MAX_TABLE} players")
    rounds: list[list[int]] = []
    remaining = entrants
    while remaining > config.final_limit:
        sizes = table_sizes(remaining, config.table_size, config.allowed)
        if sum(sizes) != remaining:
            raise ValueError(f"{remaining} players cannot be split into {config.allowed}")
        rounds.append(sizes)
        remaining = max(MIN_PLAYERS, sum(min(config.advance, size - 1) for size in sizes))
    rounds.append([remaining])
    return rounds


def seed_tables(players: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Serpentine seeding: ``players`` best first, dealt 1..T, T..1, ... onto the tables."""
    if len(players) != sum(sizes):
        raise ValueError(f"{len(players)} players do not fill tables {list(sizes)}")
    return serpentine(list(players), sizes)


def table_order(
    penalties: Mapping[PlayerId, float], seeds: Mapping[PlayerId, int]
) -> list[PlayerId]:
    """Finishing order at one table: lower penalty first, ties to the better (lower) seed."""
    return sorted(penalties, key=lambda player: (penalties[player], seeds[player]))


def advancers(
    penalties: Mapping[PlayerId, float], advance: int, seeds: Mapping[PlayerId, int]
) -> list[PlayerId]:
    """Who goes through from one table: the first ``min(advance, size - 1)`` of its order."""
    order = table_order(penalties, seeds)
    return order[: min(advance, len(order) - 1)]


def round_advancement(
    tables: Sequence[Mapping[PlayerId, float]],
    advance: int,
    seeds: Mapping[PlayerId, int],
) -> tuple[list[PlayerId], list[PlayerId]]:
    """Advancers of a whole round in next-round seeding order, plus the wildcards among them.

    Next-round order is (place at table, penalty, seed). Wildcards fill up to three players.
    """
    through: list[tuple[int, float, int, PlayerId]] = []
    rest: list[tuple[int, float, int, PlayerId]] = []
    for penalties in tables:
        order = table_order(penalties, seeds)
        cut = min(advance, len(order) - 1)
        for place, player in enumerate(order):
            entry = (place, penalties[player], seeds[player], player)
            (through if place < cut else rest).append(entry)
    through.sort(key=lambda e: e[:3])
    rest.sort(key=lambda e: e[:3])
    wildcards = [e[3] for e in rest[: max(0, MIN_PLAYERS - len(through))]]
    through.extend(rest[: len(wildcards)])
    through.sort(key=lambda e: e[:3])
    return [e[3] for e in through], wildcards


def build_bracket(
    seeds: Sequence[PlayerId],
    results: Sequence[Mapping[PlayerId, float]] = (),
    config: KnockoutConfig | None = None,
) -> Bracket:
    """Replay the knockout from the seed list (best first) and per-round penalty totals.

    ``results[r]`` maps each player of round r+1 to their Partie penalty total; a round may be
    partly entered. Rounds that cannot be seated yet are returned with empty seats.
    """
    config = config or KnockoutConfig()
    if len(set(seeds)) != len(seeds):
        raise ValueError("every player may be seeded only once")
    seed_of = {player: number for number, player in enumerate(seeds, start=1)}
    plan = plan_rounds(len(seeds), config)
    rounds: list[BracketRound] = []
    field_players: list[PlayerId] | None = list(seeds)
    source_of: dict[PlayerId, int] = {}
    champion = None
    for number, sizes in enumerate(plan, start=1):
        final = number == len(plan)
        if field_players is None:
            tables = [
                BracketTable(i, [BracketSeat(None) for _ in range(size)], [None] * size)
                for i, size in enumerate(sizes)
            ]
            rounds.append(BracketRound(number, final, tables))
            continue
        entered = results[number - 1] if number - 1 < len(results) else {}
        groups = seed_tables(field_players, sizes)
        tables = []
        for index, group in enumerate(groups):
            seats = [BracketSeat(player, seed_of[player], entered.get(player)) for player in group]
            sources = [source_of.get(player) for player in group]
            tables.append(BracketTable(index, seats, sources))
        rounds.append(BracketRound(number, final, tables))
        if not all(table.finished for table in tables):
            field_players = None
            continue
        penalty_maps = [{s.player: s.penalty for s in table.seats} for table in tables]
        for table, penalties in zip(tables, penalty_maps, strict=True):
            order = table_order(penalties, seed_of)
            for seat in table.seats:
                seat.place = order.index(seat.player)
        if number == len(plan):
            champion = table_order(penalty_maps[0], seed_of)[0]
            break
        through, wildcards = round_advancement(penalty_maps, config.advance, seed_of)
        source_of = {}
        for table in tables:
            for seat in table.seats:
                if seat.player in through:
                    seat.advanced = True
                    seat.wildcard = seat.player in wildcards
                    source_of[seat.player] = table.index
        field_players = through
    return Bracket(rounds, champion)


# ---------------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------------

_COLUMN = 280
_BOX_WIDTH = 200
_LABEL_CHARS = 20  # longer names are cut with an ellipsis; the full name is in <title>
_ROW = 20
_HEADER = 22
_GAP = 18
_MARGIN = 20
_TITLE = 30


def bracket_svg(
    bracket: Bracket,
    names: Mapping[PlayerId, str] | None = None,
    labels: BracketLabels | None = None,
) -> str:
    """Draw the bracket as a self-contained SVG: one column per round, lines follow advancers."""
    names = names or {}
    labels = labels or BracketLabels()
    heights = [
        sum(_HEADER + _ROW * len(t.seats) + _GAP for t in r.tables) for r in bracket.rounds
    ] or [0]
    body_height = max(heights)
    width = 2 * _MARGIN + _COLUMN * max(1, len(bracket.rounds)) - (_COLUMN - _BOX_WIDTH)
    height = 2 * _MARGIN + _TITLE + body_height
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12" '
        f'role="img" aria-label={quoteattr(labels.title)}>',
        "<style>.box{fill:#fff;stroke:#445;stroke-width:1}.head{fill:#e8ecf4}"
        ".adv{font-weight:bold;fill:#1b5e20}.out{fill:#555}.tbd{fill:#999;font-style:italic}"
        ".link{fill:none;stroke:#8a94a6;stroke-width:1.2}.champ{fill:#b8860b;font-weight:bold}"
        "</style>",
    ]
    anchors: dict[tuple[int, int], tuple[float, float, float]] = {}
    for column, round_ in enumerate(bracket.rounds):
        x = _MARGIN + column * _COLUMN
        parts.append(
            f'<text x="{x}" y="{_MARGIN + 14}" font-size="14" font-weight="bold">'
            f"{escape(labels.round_name(round_))}</text>"
        )
        used = heights[column] if column < len(heights) else 0
        y = _MARGIN + _TITLE + (body_height - used) / 2
        for table in round_.tables:
            box_height = _HEADER + _ROW * len(table.seats)
            anchors[(column, table.index)] = (x, y, box_height)
            parts.append(
                f'<g class="table" data-round="{round_.number}" data-table="{table.index + 1}">'
            )
            parts.append(
                f'<rect class="box" x="{x}" y="{y}" width="{_BOX_WIDTH}" height="{box_height}" '
                'rx="4"/>'
            )
            parts.append(
                f'<rect class="head" x="{x + 1}" y="{y + 1}" width="{_BOX_WIDTH - 2}" '
                f'height="{_HEADER - 2}" rx="3"/>'
            )
            title = escape(labels.table_name(round_, table))
            parts.append(f'<text x="{x + 8}" y="{y + 15}">{title}</text>')
            for row, seat in enumerate(table.seats):
                champion = seat.player is not None and seat.player == bracket.champion
                top = y + _HEADER + _ROW * row + 14
                parts.append(_seat_text(seat, names, x, top, champion, labels.undecided))
            parts.append("</g>")
            y += box_height + _GAP
    for column, round_ in enumerate(bracket.rounds[1:], start=1):
        previous = bracket.rounds[column - 1]
        for table in round_.tables:
            tx, ty, _ = anchors[(column, table.index)]
            for row, (seat, source) in enumerate(zip(table.seats, table.sources, strict=True)):
                if source is None:
                    continue
                sx, sy, _ = anchors[(column - 1, source)]
                from_row = [s.player for s in previous.tables[source].seats].index(seat.player)
                x1, y1 = sx + _BOX_WIDTH, sy + _HEADER + _ROW * from_row + _ROW / 2
                x2, y2 = tx, ty + _HEADER + _ROW * row + _ROW / 2
                middle = (x1 + x2) / 2
                parts.append(
                    f'<path class="link" d="M{x1},{y1} C{middle},{y1} {middle},{y2} {x2},{y2}"/>'
                )
    if bracket.champion is not None and bracket.rounds:
        x = _MARGIN + (len(bracket.rounds) - 1) * _COLUMN
        label = escape(labels.champion(names.get(bracket.champion, str(bracket.champion))))
        parts.append(f'<text class="champ" x="{x}" y="{height - _MARGIN + 4}">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def _seat_text(
    seat: BracketSeat,
    names: Mapping[PlayerId, str],
    x: float,
    y: float,
    champion: bool,
    undecided: str,
) -> str:
    if seat.player is None:
        return f'<text class="tbd" x="{x + 8}" y="{y}">{escape(undecided)}</text>'
    seed = f" ({seat.seed})" if seat.seed is not None else ""
    mark = " *" if seat.wildcard else ""
    full = f"{names.get(seat.player, str(seat.player))}{seed}{mark}"
    shown = full if len(full) <= _LABEL_CHARS else full[: _LABEL_CHARS - 1] + "\u2026"
    if champion:
        css = "champ"
    elif seat.advanced:
        css = "adv"
    else:
        css = "out" if seat.place is not None else ""
    penalty = "" if seat.penalty is None else _number(seat.penalty)
    class_attr = f' class="{css}"' if css else ""
    return (
        f'<text{class_attr} x="{x + 8}" y="{y}"><title>{escape(full)}</title>'
        f"{escape(shown)}</text>"
        f'<text{class_attr} x="{x + _BOX_WIDTH - 8}" y="{y}" text-anchor="end">{penalty}</text>'
    )


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
