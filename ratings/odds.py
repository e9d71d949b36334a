"""What a player can expect from a rated table and why a rating changed: the odds shown
before a rated table starts, the change explained opponent by opponent afterwards, and the
help page's chart and worked examples. Reads only, from the pure maths in ``elo``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from ratings import elo
from ratings.models import LADDER_POOL, PlayerRating, RatingChange

# The pool's odds calibration (``pool_scale``): fitted on the last CALIBRATION_PARTIES applied
# Parties, cached until the pool applies another Partie (at most CALIBRATION_SECONDS).
CALIBRATION_PARTIES = 1000
CALIBRATION_SECONDS = 3600


def pool_scale(pool: str = LADDER_POOL) -> float:
    """The log-odds multiplier that makes the pool's odds honest, from its own recent results.

    Each of the pool's last ``CALIBRATION_PARTIES`` applied Parties is rebuilt as ``predict``
    saw it before the Partie (the stored pre-Partie ratings, bots at the rating recorded with
    the Partie, a leaver one point behind the worst total, as the update rated it) and
    ``elo.fit_scale`` finds the scale under which those predictions were honest. 1 (the bare
    model) for a pool without history. Cached per state of the pool's ledger (the count of applied Parties
    and the last one), so a new result or a recompute is seen at the next read.
    """
    from django.core.cache import cache

    from ratings.models import RatedPartie, RatingLedger
    from ratings.replay import recorded_bot_rating

    ledger = RatingLedger.objects.filter(pool=pool).values_list("applied", "last_partie_id").first()
    if ledger is None:
        return 1.0
    key = f"ratings:pool-scale:{pool}:{ledger[0]}:{ledger[1]}"
    cached = cache.get(key)
    if cached is not None:
        return float(cached)
    jobs = list(
        RatedPartie.objects.filter(pool=pool, status=RatedPartie.Status.APPLIED)
        .order_by("-finished_at", "-partie_id")
        .values_list("partie_id", "finished_at", "participants")[:CALIBRATION_PARTIES]
    )
    before: dict[tuple[int, int], elo.Rating] = {}
    for partie_id, user_id, mu, sigma, games, last in RatingChange.objects.filter(
        partie_id__in=[job[0] for job in jobs]
    ).values_list(
        "partie_id", "user_id", "mu_before", "sigma_before", "games_before", "last_played_before"
    ):
        stamp = last.timestamp() if last is not None else None
        before[(partie_id, user_id)] = elo.Rating(mu, sigma, games, stamp)
    pairs: list[tuple[float, float]] = []
    for partie_id, finished_at, participants in jobs:
        people = sorted(participants, key=lambda p: p["seat"])
        players = [
            recorded_bot_rating(p)
            if p["user_id"] is None
            else before.get((partie_id, p["user_id"]))
            for p in people
        ]
        if any(player is None for player in players) or not 3 <= len(players) <= 6:
            continue  # a Partie the update did not rate as a whole
        worst = max(p["total"] for p in people)
        totals = [worst + 1 if p["left"] else p["total"] for p in people]
        pairs += elo.table_pairs(players, totals, finished_at.timestamp())
    scale = elo.fit_scale(pairs)
    cache.set(key, scale, CALIBRATION_SECONDS)
    return scale


def _name_of(user: Any) -> str:
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile is not None else "") or user.get_username()


@dataclass(frozen=True)
class OddsRow:
    """One seat of a rated table before its start: what the rating expects and risks."""

    seat: int
    name: str
    rating: str
    expected_place: float
    change_if_first: int
    change_if_last: int
    is_you: bool


def table_odds(table: Any, user: Any, now: dt.datetime | None = None) -> list[OddsRow] | None:
    """The odds a seated player sees at a rated table that has not started, else None.

    Uses the same maths as the update (``elo.table_odds``): humans with their pool rating as
    of ``now``, newcomers at 1500, bots at their level's measured rating. Needs 3-6 occupied
    seats.
    """
    from games import selectors as games_selectors
    from games.models import Table
    from ratings.replay import bot_rating

    if not table.rated or table.status != Table.Status.OPEN or user is None:
        return None
    seats = [s for s in games_selectors.seats_of(table) if s.user_id or s.bot_level]
    if not 3 <= len(seats) <= 6 or all(s.user_id != user.pk for s in seats):
        return None
    now = now or timezone.now()
    pool = table.rating_pool or LADDER_POOL
    stored = {
        row.user_id: row
        for row in PlayerRating.objects.filter(
            pool=pool, user_id__in=[s.user_id for s in seats if s.user_id]
        )
    }
    players = [
        bot_rating(s.bot_level)
        if s.user_id is None
        else (stored[s.user_id].as_rating() if s.user_id in stored else elo.new_rating())
        for s in seats
    ]
    odds = elo.table_odds(players, now.timestamp(), scale=pool_scale(pool))
    return [
        OddsRow(
            seat=s.number,
            name=_name_of(s.user) if s.user_id else games_selectors.seat_info(s)["name"],
            rating=elo.display(elo.inflate_for_inactivity(p, now.timestamp())),
            expected_place=o.expected_place,
            change_if_first=round(o.change_if_first),
            change_if_last=round(o.change_if_last),
            is_you=s.user_id == user.pk,
        )
        for s, p, o in zip(seats, players, odds, strict=True)
    ]


@dataclass(frozen=True)
class ReasonLine:
    """One opponent's share of a rating change: the head-to-head and what it was worth."""

    name: str
    rating_before: int
    own_total: int
    their_total: int
    contribution: float

    @property
    def outcome(self) -> str:
        """Won, lost or draw from the owner's side (lower total is better)."""
        if self.own_total < self.their_total:
            return "won"
        return "lost" if self.own_total > self.their_total else "draw"

    @property
    def margin(self) -> int:
        return abs(self.own_total - self.their_total)


@dataclass(frozen=True)
class ChangeExplained:
    partie_id: int
    table_id: int
    finished_at: dt.datetime
    delta: float
    lines: list[ReasonLine]
    left: bool
    winner_floor: bool  # a unique winner's loss was floored at 0


def change_explained(change: RatingChange) -> ChangeExplained | None:
    """Who a player beat or lost to in one rated Partie, by how much, and what each was worth.

    Rebuilt from the stored rating input (``RatedPartie.participants``) and the pre-Partie
    values of every rating change of that Partie, through ``elo.explain_change``: the same
    terms the update summed. None when the Partie's job is missing.
    """
    from ratings.models import RatedPartie
    from ratings.replay import recorded_bot_rating

    job = RatedPartie.objects.filter(partie_id=change.partie_id).first()
    if job is None:
        return None
    people = sorted(job.participants, key=lambda p: p["seat"])
    rows = {
        c.user_id: c
        for c in RatingChange.objects.filter(partie_id=change.partie_id).select_related(
            "user", "user__profile"
        )
    }
    worst = max(p["total"] for p in people)
    totals = [worst + 1 if p["left"] else p["total"] for p in people]
    players = []
    for p in people:
        row = rows.get(p["user_id"]) if p["user_id"] is not None else None
        if row is None:
            players.append(recorded_bot_rating(p))
        else:
            last = row.last_played_before
            players.append(
                elo.Rating(
                    row.mu_before,
                    row.sigma_before,
                    row.games_before,
                    last.timestamp() if last is not None else None,
                )
            )
    index = next((k for k, p in enumerate(people) if p["user_id"] == change.user_id), None)
    if index is None:
        return None
    terms = elo.explain_change(players, totals, index, job.finished_at.timestamp())
    lines = []
    for k, p in enumerate(people):
        if k == index:
            continue
        row = rows.get(p["user_id"]) if p["user_id"] is not None else None
        if row is not None:
            name = _name_of(row.user)
        else:
            name = gettext("Bot ({level})").format(level=p.get("bot_level") or "?")
        lines.append(
            ReasonLine(
                name=name,
                rating_before=round(players[k].mu),
                own_total=totals[index],
                their_total=totals[k],
                contribution=terms[k],
            )
        )
    delta = change.mu_after - change.mu_before
    floored = (
        delta == 0.0
        and elo.unique_winner(totals) == index
        and elo.DEFAULT_PARAMS.winner_never_loses
    )
    return ChangeExplained(
        partie_id=change.partie_id,
        table_id=change.partie.table_id,
        finished_at=change.finished_at,
        delta=delta,
        lines=lines,
        left=change.left,
        winner_floor=floored,
    )


@dataclass(frozen=True)
class HelpChart:
    """The help page's chart: chance to finish ahead of one opponent against the rating gap,
    for two settled players and for a newcomer. Coordinates are preformatted dot-decimal."""

    width: int
    height: int
    left: int
    bottom: int
    settled: str
    newcomer: str
    x_ticks: list[tuple[str, str]]
    y_ticks: list[tuple[str, str]]
    odds_400: int


def help_chart(width: int = 640, height: int = 260, scale: float = 1.0) -> HelpChart:
    """Geometry of the help page's curves, from ``elo.win_probability`` itself at the pool's
    calibration ``scale``; ``odds_400`` is what 400 points ahead is worth between settled
    players ("about 8 to 1")."""
    left, right, top, bottom = 48, 24, 12, height - 30  # room for the "+800" label
    gaps = range(-800, 801, 20)

    def x_of(gap: float) -> str:
        return f"{left + (width - left - right) * (gap + 800) / 1600:.1f}"

    def y_of(p: float) -> str:
        return f"{bottom - (bottom - top) * p:.1f}"

    settled_sigma = elo.settled_sigma()
    settled = elo.Rating(sigma=settled_sigma)
    ahead = elo.win_probability(elo.Rating(1900.0, settled_sigma), settled, scale)

    def curve(sigma: float) -> str:
        return " ".join(
            f"{x_of(g)},{y_of(elo.win_probability(elo.Rating(1500.0 + g, sigma), settled, scale))}"
            for g in gaps
        )

    return HelpChart(
        width=width,
        height=height,
        left=left,
        bottom=bottom,
        settled=curve(settled_sigma),
        newcomer=curve(elo.INITIAL_SIGMA),
        x_ticks=[(x_of(g), f"{g:+d}" if g else "0") for g in range(-800, 801, 200)],
        y_ticks=[(y_of(p / 100), f"{p} %") for p in range(0, 101, 25)],
        odds_400=round(ahead / (1.0 - ahead)),
    )


@dataclass(frozen=True)
class HelpExample:
    rows: list[tuple[int, elo.SeatOdds]]  # (rating, its odds) per seat


def help_examples(scale: float = 1.0) -> list[HelpExample]:
    """Two tables of four settled players, through ``elo.table_odds`` at the pool's calibration
    ``scale``: equals, and a favourite."""
    examples = []
    for mus in ([1500, 1500, 1500, 1500], [1700, 1500, 1500, 1300]):
        players = [elo.Rating(float(mu), elo.settled_sigma()) for mu in mus]
        odds = elo.table_odds(players, scale=scale)
        examples.append(HelpExample(rows=list(zip(mus, odds, strict=True))))
    return examples
