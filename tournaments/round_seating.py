"""Who sits where in one round, from the stored entries: Swiss (and duplicate) pools, the
knockout bracket, the fixed schedule; written as ``RoundTable`` / ``RoundSeat`` / ``RoundBye``
rows. Callers hold the event's and then the round's lock (``tournaments.common``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from rosbi_platform.accounts.models import ClubMembership
from tournaments import duplicate as duplicate_algorithms
from tournaments import knockout, schedule, seating, selectors
from tournaments.common import TournamentError
from tournaments.events import create_rounds
from tournaments.models import Entry, Round, RoundBye, RoundSeat, RoundTable, Tournament


def _eligible_entries(
    tournament: Tournament, round_number: int, leaving: int | None = None
) -> list[Entry]:
    """Who plays this round: active entrants whose first round has come; with check-in in use
    (a window or a state other than not-open) only the checked-in ones; never ``leaving`` (an
    entry being withdrawn in the same transaction); bot accounts only when the event takes
    them."""
    uses_check_in = (
        tournament.check_in_opens_at is not None
        or tournament.check_in != Tournament.Window.NOT_OPEN
    )
    statuses = (
        [Entry.Status.CHECKED_IN]
        if uses_check_in
        else [
            Entry.Status.REGISTERED,
            Entry.Status.CHECKED_IN,
        ]
    )
    entries = Entry.objects.filter(
        tournament=tournament, status__in=statuses, first_round__lte=round_number
    ).exclude(pk=leaving)
    if not tournament.allow_bots:
        # The event's bot rule holds at every seating, whoever made the entry and whenever.
        entries = entries.exclude(user__profile__bot_since__isnull=False)
    return list(entries.select_related("user").order_by("pk"))


def ready_player_count(tournament: Tournament, round_number: int = 1) -> int:
    """How many entrants would be seated in this round now (checked in, where check-in is used)."""
    return len(_eligible_entries(tournament, round_number))


def _club_of(entry: Entry) -> str | None:
    club_id = (
        ClubMembership.objects.filter(user_id=entry.user_id)
        .order_by("club_id")
        .values_list("club_id", flat=True)
        .first()
    )
    return None if club_id is None else str(club_id)


def _points_so_far(tournament: Tournament) -> dict[int, float]:
    return {row.entry_id: row.points for row in selectors.compute_tournament_standings(tournament)}


def _swiss_tables(
    tournament: Tournament, round_number: int, entries: list[Entry]
) -> tuple[list[list[int]], list[int]]:
    """Swiss (and duplicate) seating of one pool of entrants."""
    if not entries:
        return [], []
    points = _points_so_far(tournament) if round_number > 1 else {}
    entrants = [
        seating.Entrant(
            id=e.pk,
            score=points.get(e.pk, 0.0),
            rating=e.rating,
            club=_club_of(e) if tournament.avoid_same_club else None,
        )
        for e in entries
    ]
    history = seating.SeatingHistory.from_rounds(
        [tables for _n, tables, _b in selectors.stored_rounds(tournament)],
        [byes for _n, _t, byes in selectors.stored_rounds(tournament)],
    )
    options = seating.SeatingOptions(
        preferred=tournament.table_size,
        allowed=tournament.allowed_sizes,
        seed=tournament.seed,
        first_round=tournament.first_round,
        avoid_same_club=tournament.avoid_same_club,
    )
    result = seating.seat_round(entrants, round_number, history, options)
    return [list(t) for t in result.tables], list(result.byes)


def _knockout_tables(
    tournament: Tournament, round_number: int, entries: list[Entry]
) -> tuple[list[list[int]], list[int], set[int]]:
    """Round 1 seeds the field; later rounds seat the bracket's tables without the players who
    have withdrawn since (the bracket scores them as a forfeit, the worst total). Only when that
    would leave fewer than three at a table do they keep the seat, as a forfeit played by a bot
    (online) — a Partie needs three. Returns (tables, byes, seats kept as forfeits)."""
    if round_number == 1:
        Entry.objects.filter(tournament=tournament).update(seed_number=None)  # a re-seat
        lot = seating.seeded_rng(tournament.seed, 0, "knockout-seeds")
        keys = {e.pk: lot.random() for e in entries}
        if tournament.first_round == Tournament.FirstRound.RATING:
            ordered = sorted(entries, key=lambda e: (-e.rating, keys[e.pk]))
        else:
            ordered = sorted(entries, key=lambda e: keys[e.pk])
        for number, entry in enumerate(ordered, start=1):
            Entry.objects.filter(pk=entry.pk).update(seed_number=number)
        plan = knockout.plan_rounds(len(ordered), selectors.knockout_config(tournament))
        if len(plan) != tournament.rounds:
            Round.objects.filter(tournament=tournament, number__gt=len(plan)).delete()
            create_rounds(tournament, tournament.rounds + 1, len(plan))
            tournament.rounds = len(plan)
            tournament.save(update_fields=["rounds"])
    bracket = selectors.knockout_bracket(tournament)
    if bracket is None or round_number > len(bracket.rounds):
        raise TournamentError(_("The knockout has no such round."))
    tables = [
        [seat.player for seat in table.seats] for table in bracket.rounds[round_number - 1].tables
    ]
    if any(player is None for table in tables for player in table):
        raise TournamentError(_("The previous knockout round is not finished."))
    active = {e.pk for e in entries}
    seated: list[list[int]] = []
    forfeits: set[int] = set()
    for table in tables:
        playing = [player for player in table if player in active]
        if len(playing) >= 3:
            seated.append(playing)
        else:
            seated.append(table)
            forfeits.update(player for player in table if player not in active)
    return seated, [], forfeits


def _fixed_tables(
    tournament: Tournament, round_number: int, entries: list[Entry]
) -> tuple[list[list[int]], list[int]]:
    """The schedule is built once from the round-1 field (seated and byes) and replayed."""
    if round_number == 1:
        field = [e.pk for e in entries]
    else:
        first = selectors.stored_rounds(tournament)[0]
        field = sorted({p for t in first[1] for p in t} | set(first[2]))
    plan = schedule.fixed_schedule(
        len(field),
        tournament.table_size,
        tournament.rounds,
        seed=tournament.seed,
        allowed=tournament.allowed_sizes,
    )
    active = {e.pk for e in entries}
    tables: list[list[int]] = []
    byes = [field[i] for i in plan.byes[round_number - 1] if field[i] in active]
    for table in plan.rounds[round_number - 1]:
        players = [field[i] for i in table if field[i] in active]
        if len(players) >= 3:
            tables.append(players)
        else:
            byes.extend(players)  # withdrawals left too few for a Partie
    return tables, byes


def _seating_for(
    tournament: Tournament, round_: Round, leaving: int | None = None
) -> tuple[list[tuple[list[int], bool]], list[int], set[int]]:
    """Tables (entry ids in seat order, physical or not), byes and forfeit seats of a round."""
    entries = _eligible_entries(tournament, round_.number, leaving)
    forfeits: set[int] = set()
    if tournament.format == Tournament.Format.KNOCKOUT:
        tables, byes, forfeits = _knockout_tables(tournament, round_.number, entries)
        pools = [(tables, tournament.mode == Tournament.Mode.PHYSICAL)]
    elif tournament.format == Tournament.Format.FIXED:
        tables, byes = _fixed_tables(tournament, round_.number, entries)
        pools = [(tables, tournament.mode == Tournament.Mode.PHYSICAL)]
    else:
        online = [e for e in entries if e.plays_online]
        offline = [e for e in entries if not e.plays_online]
        if len(online) + len(offline) < 3:
            raise TournamentError(_("At least three players are needed to seat a round."))
        online_tables, online_byes = _swiss_tables(tournament, round_.number, online)
        offline_tables, offline_byes = _swiss_tables(tournament, round_.number, offline)
        pools = [(online_tables, False), (offline_tables, True)]
        byes = online_byes + offline_byes
    seated = [(table, physical) for tables, physical in pools for table in tables]
    if not seated:
        raise TournamentError(_("At least three players are needed to seat a round."))
    return seated, byes, forfeits


def write_seating(tournament: Tournament, round_: Round, leaving: int | None = None) -> int:
    seated, byes, forfeits = _seating_for(tournament, round_, leaving)
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    for number, (players, physical) in enumerate(seated, start=1):
        table = RoundTable.objects.create(
            round=round_,
            number=number,
            size=len(players),
            physical=physical,
            deal_seed=(
                duplicate_table_seed(tournament.seed, round_.number, len(players))
                if duplicate
                else None
            ),
        )
        RoundSeat.objects.bulk_create(
            [
                RoundSeat(
                    table=table,
                    round=round_,
                    entry_id=entry_id,
                    seat=seat,
                    forfeit=entry_id in forfeits,
                )
                for seat, entry_id in enumerate(players)
            ]
        )
    RoundBye.objects.bulk_create([RoundBye(round=round_, entry_id=e) for e in byes])
    return len(seated)


def duplicate_table_seed(tournament_seed: str, round_number: int, table_size: int) -> int:
    """``duplicate.deal_seed`` folded into 63 bits: the database stores signed 64-bit seeds."""
    seed = duplicate_algorithms.deal_seed(tournament_seed, round_number, table_size)
    return seed & 0x7FFF_FFFF_FFFF_FFFF


def rewrite_seating(round_: Round, tournament: Tournament, leaving: int | None = None) -> int:
    """Seat a seated round again from the current entries (without ``leaving``, an entry being
    withdrawn): its tables and byes are replaced. The caller holds the event and the round."""
    RoundTable.objects.filter(round=round_).delete()
    RoundBye.objects.filter(round=round_).delete()
    return write_seating(tournament, round_, leaving)
