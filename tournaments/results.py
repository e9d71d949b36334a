"""Results and standings: a table's totals (online from the ``partie_finished`` hand-off, or
a confirmed score sheet of a physical table), and the standings recomputed from them."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.outcomes import PartieOutcome
from tournaments import selectors
from tournaments.common import (
    ADVANCE_TOURNAMENT_TASK,
    RECOMPUTE_STANDINGS_TASK,
    SheetError,
    TournamentError,
    enqueue,
    locked,
    locked_table,
    log_action,
    require_manager,
)
from tournaments.models import (
    AuditLog,
    PhysicalResult,
    Round,
    RoundSeat,
    RoundTable,
    Standing,
    Tournament,
)
from tournaments.notify import push_to_page
from tournaments.sheet_texts import sheet_problem_text
from tournaments.sheets import sheet_errors


def record_table_result(round_table_id: int, totals: dict[int, int], source: str) -> bool:
    """Store a table's Partie totals (by seat) once; a changed result (a confirmed physical
    correction) replaces the old one. Standings and the next step are queued after commit."""

    def work(table: RoundTable) -> bool:
        seats = list(table.seats.all())
        if sorted(totals) != sorted(s.seat for s in seats):
            raise TournamentError(_("The result does not match the table's seats."))
        unchanged = table.status == RoundTable.Status.FINISHED and all(
            s.total == totals[s.seat] for s in seats
        )
        if unchanged:
            return False
        for seat in seats:
            seat.total = totals[seat.seat]
        RoundSeat.objects.bulk_update(seats, ["total"])
        table.status = RoundTable.Status.FINISHED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])
        round_ = Round.objects.get(pk=table.round_id)
        tournament_id = round_.tournament_id
        AuditLog.objects.create(
            tournament_id=tournament_id,
            action="record_table_result",
            details={"round": round_.number, "table": table.number, "source": source},
        )
        enqueue(RECOMPUTE_STANDINGS_TASK, tournament_id)
        enqueue(ADVANCE_TOURNAMENT_TASK, tournament_id)
        return True

    return locked(RoundTable, round_table_id, work)


def record_partie_result(outcome: PartieOutcome) -> bool:
    """The ``partie_finished`` receiver's one job: record the totals of a tournament table."""
    table = RoundTable.objects.filter(game_table_id=outcome.table_id).first()
    if table is None:
        return False
    return record_table_result(table.pk, {s.seat: s.total for s in outcome.seats}, "online")


def _may_enter_sheet(user: Any, table: RoundTable, tournament: Tournament) -> bool:
    return selectors.can_manage(user, tournament) or table.seats.filter(entry__user=user).exists()


def _require_organiser_once_closed(user: Any, tournament: Tournament) -> bool:
    """After the event has closed (finished) only its organisers change results; True when
    the event is closed (the change is then an audited amendment)."""
    if tournament.status != Tournament.Status.FINISHED:
        return False
    if not selectors.can_manage(user, tournament):
        raise TournamentError(
            _("This event has closed: only its organisers can change its results.")
        )
    return True


def submit_physical_result(
    round_table_id: int, penalties: list[list[int]], by: Any
) -> PhysicalResult:
    """A score sheet (6 deals x seats) from the organiser or a player at the table; checked
    against RULES.md section 4 and stored as the next version (corrections included). Once
    the event has closed only its organisers submit (an amendment, audited)."""

    def work(tournament: Tournament, round_: Round, table: RoundTable) -> PhysicalResult:
        if not table.physical:
            raise TournamentError(_("Online tables score themselves."))
        if round_.status not in (Round.Status.STARTED, Round.Status.FINISHED):
            raise TournamentError(_("The round has not started."))
        closed = _require_organiser_once_closed(by, tournament)
        if not _may_enter_sheet(by, table, tournament):
            raise TournamentError(
                _("Only the organisers and the players at the table can enter it.")
            )
        rows = [[int(v) for v in row] for row in penalties]
        errors = sheet_errors(rows, players=table.size, doubling=tournament.doubling)
        if errors:
            by_deal: dict[int | None, list[str]] = {}
            for error in errors:
                by_deal.setdefault(error.deal, []).append(sheet_problem_text(error))
            raise SheetError(" ".join(sheet_problem_text(e) for e in errors), by_deal)
        latest = selectors.latest_sheet(table)
        sheet = PhysicalResult.objects.create(
            table=table,
            version=(latest.version + 1) if latest else 1,
            penalties=rows,
            submitted_by=by,
        )
        log_action(
            tournament,
            by,
            "amend_submitted" if closed else "submit_physical_result",
            table=table.pk,
            version=sheet.version,
        )
        return sheet

    return locked_table(round_table_id, work)


def confirm_physical_result(sheet_id: int, by: Any) -> bool:
    """A second person (organiser or player at the table) confirms the latest version; its
    totals become the table's result. Once the event has closed only an organiser confirms,
    and may confirm their own amendment; every amendment is audited with the totals before
    and after."""
    table_id = PhysicalResult.objects.values_list("table_id", flat=True).get(pk=sheet_id)

    def work(tournament: Tournament, round_: Round, locked_table_row: RoundTable) -> bool:
        current = PhysicalResult.objects.get(pk=sheet_id)
        if current.confirmed_at is not None:
            return False
        latest = selectors.latest_sheet(locked_table_row)
        if latest is None or latest.pk != current.pk:
            raise TournamentError(_("A newer version of this sheet exists: confirm that one."))
        closed = _require_organiser_once_closed(by, tournament)
        if by.pk == current.submitted_by_id and not closed:
            raise TournamentError(_("A second person must confirm the sheet."))
        if not _may_enter_sheet(by, locked_table_row, tournament):
            raise TournamentError(
                _("Only the organisers and the players at the table can confirm.")
            )
        current.confirmed_by = by
        current.confirmed_at = timezone.now()
        current.save(update_fields=["confirmed_by", "confirmed_at"])
        seats = list(locked_table_row.seats.order_by("seat"))
        before = [seat.total for seat in seats]
        log_action(
            tournament,
            by,
            "confirm_physical_result",
            table=locked_table_row.pk,
            version=current.version,
        )
        totals = dict(enumerate(current.totals))
        record_table_result(locked_table_row.pk, totals, f"sheet v{current.version}")
        if closed:
            log_action(
                tournament,
                by,
                "amend_result",
                round=round_.number,
                table=locked_table_row.number,
                version=current.version,
                before=before,
                after=[totals[seat.seat] for seat in seats],
            )
        return True

    return locked_table(table_id, work)


def recompute_standings(tournament_id: int, by: Any = None) -> int:
    """Replace the cached standings by the ones the stored results give; push after commit.
    Asked for by an organiser (``by``), it is audited; the scheduler and the tasks pass none."""

    def work(tournament: Tournament) -> int:
        if by is not None:
            require_manager(by, tournament)
            log_action(tournament, by, "recompute_standings")
        rows = selectors.compute_tournament_standings(tournament)
        Standing.objects.filter(tournament=tournament).delete()
        Standing.objects.bulk_create(
            [
                Standing(
                    tournament=tournament,
                    entry_id=row.entry_id,
                    rank=row.rank,
                    points=row.points,
                    penalty=row.penalty,
                    opponents_points=row.opponents_points,
                    table_wins=row.table_wins,
                    rounds_played=row.rounds_played,
                    rounds_absent=row.rounds_absent,
                    percent=row.percent,
                )
                for row in rows
            ]
        )
        tournament.standings_version += 1
        tournament.save(update_fields=["standings_version"])
        push_to_page(
            tournament.pk,
            {"type": "standings.changed", "version": tournament.standings_version},
        )
        return len(rows)

    return locked(Tournament, tournament_id, work)
