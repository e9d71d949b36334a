"""The services behind the organiser's workspace: adding a player by name, substitution and
seat swaps after seating, pause and resume, editing before the start, announcements, the
deals export. Each refuses bad input with a sentence and leaves the state unchanged; each
is idempotent."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from rosbi_platform.notifications.models import Notification
from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import (
    audit_actions,
    enter_and_confirm,
    open_event,
    organiser_of,
    start_now,
)
from tournaments import announcements, entries, events, exports, notify, rounds, scheduler
from tournaments.common import TournamentError
from tournaments.models import (
    Announcement,
    AnnouncementDelivery,
    Entry,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)

pytestmark = [pytest.mark.django_db]


def seated_round(tournament: Tournament, organiser) -> Round:
    round_ = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_.pk, by=organiser)
    round_.refresh_from_db()
    return round_


def seat_map(round_: Round) -> dict[int, tuple[int, int]]:
    return {
        s.entry_id: (s.table.number, s.seat)
        for s in RoundSeat.objects.filter(round=round_).select_related("table")
    }


# --------------------------------------------------------------------------- finding a player


def test_a_player_is_found_by_user_name_or_display_name_in_any_case():
    anna = UserFactory(username="anna_k")
    anna.profile.display_name = "Anna Kowalski"
    anna.profile.save()
    assert entries.user_by_name("ANNA_K") == anna
    assert entries.user_by_name("  anna kowalski ") == anna


def test_an_unknown_or_ambiguous_name_is_refused_with_a_sentence():
    first, second = UserFactory(username="max1"), UserFactory(username="max2")
    for user in (first, second):
        user.profile.display_name = "Max"
        user.profile.save()
    with pytest.raises(TournamentError, match="Nobody is called “Moritz”"):
        entries.user_by_name("Moritz")
    with pytest.raises(TournamentError, match="ambiguous .*max1, max2"):
        entries.user_by_name("max")
    # A prefix is not a match: "Anna" never picks "Annabel".
    UserFactory(username="annabel")
    with pytest.raises(TournamentError, match="Nobody"):
        entries.user_by_name("anna")


# --------------------------------------------------------------------------- adding at the door


def test_an_organiser_adds_a_player_once_and_checks_them_in_at_the_door():
    tournament, organiser = open_event(3, slug="door")
    newcomer = UserFactory()

    added = entries.add_entry(tournament.pk, newcomer, organiser, check_in_now=True)
    again = entries.add_entry(tournament.pk, newcomer, organiser, check_in_now=True)

    assert added.created and not again.created
    assert again.entry.pk == added.entry.pk
    assert added.entry.status == Entry.Status.CHECKED_IN
    assert Entry.objects.filter(tournament=tournament, user=newcomer).count() == 1
    assert audit_actions(tournament).count("add_entry") == 1


def test_adding_by_someone_who_does_not_organise_the_club_is_refused():
    tournament, _organiser = open_event(3, slug="stranger")
    other_organiser = organiser_of(ClubFactory())
    with pytest.raises(TournamentError, match="organisers"):
        entries.add_entry(tournament.pk, UserFactory(), other_organiser)
    assert tournament.entries.count() == 3


def test_a_full_or_finished_event_takes_nobody():
    tournament, organiser = open_event(3, slug="full", capacity=3)
    with pytest.raises(TournamentError, match="full"):
        entries.add_entry(tournament.pk, UserFactory(), organiser)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(TournamentError, match="over"):
        entries.add_entry(tournament.pk, UserFactory(), organiser)


# --------------------------------------------------------------------------- substitution


def test_a_substitute_takes_the_seat_of_a_seated_player_once():
    tournament, organiser = open_event(8, slug="sub")
    round_ = seated_round(tournament, organiser)
    leaving = RoundSeat.objects.filter(round=round_).order_by("table__number", "seat").first()
    place = (leaving.table_id, leaving.seat)
    substitute = UserFactory()

    assert rounds.substitute_player(round_.pk, leaving.entry_id, substitute, organiser) is True
    assert rounds.substitute_player(round_.pk, leaving.entry_id, substitute, organiser) is False

    seat = RoundSeat.objects.get(table_id=place[0], seat=place[1])
    assert seat.entry.user == substitute
    assert seat.entry.status == Entry.Status.CHECKED_IN
    assert Entry.objects.get(pk=leaving.entry_id).status == Entry.Status.WITHDRAWN
    assert audit_actions(tournament).count("substitute_player") == 1


def test_a_substitute_who_already_plays_in_the_round_is_refused():
    tournament, organiser = open_event(8, slug="sub-twice")
    round_ = seated_round(tournament, organiser)
    first, second = RoundSeat.objects.filter(round=round_).select_related("entry__user")[:2]
    before = seat_map(round_)
    with pytest.raises(TournamentError, match="already plays in round 1"):
        rounds.substitute_player(round_.pk, first.entry_id, second.entry.user, organiser)
    assert seat_map(round_) == before


def test_an_online_table_being_played_keeps_its_players(eager_celery):
    tournament, organiser = open_event(4, slug="sub-online")
    round_ = seated_round(tournament, organiser)
    rounds.start_round(round_.pk, by=organiser)
    seat = RoundSeat.objects.filter(round=round_).first()
    with pytest.raises(TournamentError, match="being played and keeps its players"):
        rounds.substitute_player(round_.pk, seat.entry_id, UserFactory(), organiser)
    assert RoundSeat.objects.get(pk=seat.pk).entry_id == seat.entry_id


def test_a_physical_table_of_a_playing_round_takes_a_substitute(eager_celery):
    tournament, organiser = open_event(4, slug="sub-physical", mode=Tournament.Mode.PHYSICAL)
    round_ = seated_round(tournament, organiser)
    rounds.start_round(round_.pk, by=organiser)
    seat = RoundSeat.objects.filter(round=round_).first()
    substitute = UserFactory()
    assert rounds.substitute_player(round_.pk, seat.entry_id, substitute, organiser)
    assert RoundSeat.objects.get(pk=seat.pk).entry.user == substitute


# --------------------------------------------------------------------------- swapping seats


def test_two_players_swap_seats_and_a_repeated_request_changes_nothing():
    tournament, organiser = open_event(8, slug="swap")
    round_ = seated_round(tournament, organiser)
    before = seat_map(round_)
    first, second = (
        sorted(before, key=lambda e: before[e])[0],
        sorted(before, key=lambda e: before[e])[-1],
    )

    assert rounds.swap_seats(round_.pk, first, second, organiser, first_at=before[first])
    assert not rounds.swap_seats(round_.pk, first, second, organiser, first_at=before[first])

    after = seat_map(round_)
    assert after[first] == before[second] and after[second] == before[first]
    assert {e: p for e, p in after.items() if e not in (first, second)} == {
        e: p for e, p in before.items() if e not in (first, second)
    }
    assert audit_actions(tournament).count("swap_seats") == 1


def test_a_swap_with_oneself_or_someone_unseated_is_refused():
    tournament, organiser = open_event(8, slug="swap-bad")
    round_ = seated_round(tournament, organiser)
    before = seat_map(round_)
    someone = next(iter(before))
    with pytest.raises(TournamentError, match="two different players"):
        rounds.swap_seats(round_.pk, someone, someone, organiser)
    outsider = entries.add_entry(tournament.pk, UserFactory(), organiser).entry
    with pytest.raises(TournamentError, match="Both players need a seat"):
        rounds.swap_seats(round_.pk, someone, outsider.pk, organiser)
    assert seat_map(round_) == before


# --------------------------------------------------------------------------- pause and resume


def test_a_paused_event_seats_and_starts_nothing_until_resumed():
    tournament, organiser = open_event(4, slug="pause")
    assert events.pause_tournament(tournament.pk, by=organiser) is True
    assert events.pause_tournament(tournament.pk, by=organiser) is False
    start_now(tournament, organiser)

    scheduler.advance_tournament(tournament.pk, now=timezone.now() + dt.timedelta(minutes=1))
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.PENDING

    assert events.resume_tournament(tournament.pk, by=organiser) is True
    assert events.resume_tournament(tournament.pk, by=organiser) is False
    scheduler.advance_tournament(tournament.pk, now=timezone.now() + dt.timedelta(minutes=1))
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.STARTED
    assert audit_actions(tournament).count("pause_tournament") == 1


def test_a_finished_event_cannot_be_paused():
    tournament, organiser = open_event(3, slug="pause-over")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    with pytest.raises(TournamentError, match="planned or running"):
        events.pause_tournament(tournament.pk, by=organiser)


# --------------------------------------------------------------------------- editing


def test_format_rounds_and_scoring_change_until_round_one_is_seated():
    tournament, organiser = open_event(4, slug="edit", rounds=4)
    events.update_tournament(
        tournament.pk,
        organiser,
        rounds=2,
        placement_points={"4": [4, 2, 1, 0]},
        tiebreaks=["points", "table_wins"],
    )
    tournament.refresh_from_db()
    assert tournament.rounds == 2 and tournament.tiebreaks == ["points", "table_wins"]
    assert list(tournament.round_set.values_list("number", flat=True)) == [1, 2]

    seated_round(tournament, organiser)
    with pytest.raises(TournamentError, match="Round 1 is seated"):
        events.update_tournament(tournament.pk, organiser, rounds=3)
    tournament.refresh_from_db()
    assert tournament.rounds == 2


def test_invalid_placement_points_or_tie_breaks_are_refused():
    from django.core.exceptions import ValidationError

    tournament, organiser = open_event(3, slug="edit-bad")
    for bad in ({"4": [3, 2, 1]}, {"4": [0, 1, 2, 3]}, {"9": [1] * 9}, {"4": [3, 2, -1, 0]}):
        with pytest.raises(ValidationError):
            events.update_tournament(tournament.pk, organiser, placement_points=bad)
    for bad in ([], ["points", "points"], ["luck"]):
        with pytest.raises(ValidationError):
            events.update_tournament(tournament.pk, organiser, tiebreaks=bad)
    tournament.refresh_from_db()
    assert tournament.placement_points == {}


# --------------------------------------------------------------------------- announcements


def test_an_announcement_is_posted_and_delivered_once_per_entrant(
    eager_celery, django_capture_on_commit_callbacks
):
    tournament, organiser = open_event(3, slug="news")
    entries.withdraw_entry(tournament.pk, tournament.entries.first().user)

    with django_capture_on_commit_callbacks(execute=True):
        first = announcements.announce_to_entrants(
            tournament.pk, "  Tables   are in the back room. ", organiser, token="t-1"
        )
        again = announcements.announce_to_entrants(
            tournament.pk, "Tables are in the back room.", organiser, token="t-1"
        )
    assert again.pk == first.pk and first.text == "Tables are in the back room."
    assert notify.notify_announcement(first.pk) == 0  # the task already told everyone

    assert Announcement.objects.filter(tournament=tournament).count() == 1
    assert AnnouncementDelivery.objects.filter(announcement=first).count() == 2
    notices = Notification.objects.filter(tournament_id=tournament.pk, kind="announcement")
    assert notices.count() == 2
    assert all("back room" in n.message for n in notices)


def test_an_empty_or_foreign_announcement_is_refused():
    tournament, organiser = open_event(3, slug="news-bad")
    with pytest.raises(TournamentError, match="Write the announcement"):
        announcements.announce_to_entrants(tournament.pk, "   ", organiser, token="x")
    with pytest.raises(TournamentError, match="at most 500"):
        announcements.announce_to_entrants(tournament.pk, "a" * 501, organiser, token="x")
    with pytest.raises(TournamentError, match="organisers"):
        announcements.announce_to_entrants(
            tournament.pk, "Hello", tournament.entries.first().user, token="x"
        )
    assert not Announcement.objects.exists()


# --------------------------------------------------------------------------- deals export


def test_the_deals_export_has_every_deal_of_a_confirmed_sheet(eager_celery):
    import io

    tournament, organiser = open_event(4, slug="deals", mode=Tournament.Mode.PHYSICAL, rounds=1)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    table = RoundTable.objects.get(round__tournament=tournament)
    totals = enter_and_confirm(table, organiser, "deals-1")

    out = io.StringIO()
    exports.write_csv(out, exports.DEALS_HEADER, exports.deal_rows_for_export([tournament]))
    lines = out.getvalue().strip().splitlines()
    assert lines[0].split(",") == exports.DEALS_HEADER
    rows = [line.split(",") for line in lines[1:]]
    assert len(rows) == 6 * 4
    by_seat = {seat: 0 for seat in range(4)}
    for row in rows:
        by_seat[int(row[4])] += int(row[6])
    assert [by_seat[s] for s in range(4)] == totals
