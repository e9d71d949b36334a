"""Club management services (rosbi_platform/accounts/clubs.py): club requests decided by
staff, joining by request or invite link, roles managed by owners, the last owner kept,
refusals that change nothing, and idempotency (twice, and at once from two threads)."""

from __future__ import annotations

import contextlib
import datetime as dt
import threading

import pytest
from django.db import connection
from django.utils import timezone

from rosbi_platform.accounts import clubs
from rosbi_platform.accounts.models import (
    ClubInvite,
    ClubMembership,
    ClubRequest,
    Decision,
    MembershipRequest,
)
from tests.games.factories import SiteModeratorFactory
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory

pytestmark = [pytest.mark.django_db]
Role = ClubMembership.Role


def staff():
    """A site moderator (the "Site moderators" group): they decide club requests; being staff
    is not enough (tests/platform/test_club_takeover.py)."""
    return SiteModeratorFactory()


def club_with_owner():
    club = ClubFactory()
    owner = MembershipFactory(club=club, role=Role.OWNER).user
    return club, owner


def roles(club) -> dict[str, str]:
    return dict(ClubMembership.objects.filter(club=club).values_list("user__username", "role"))


def test_a_requested_club_is_created_by_staff_with_the_requester_as_owner():
    alice = UserFactory()
    request = clubs.request_club(alice, name="Skatfreunde Nord", description="Dienstags")
    assert request.status == Decision.PENDING
    club = clubs.approve_club_request(request.pk, staff())
    assert (club.name, club.slug, club.description) == (
        "Skatfreunde Nord",
        "skatfreunde-nord",
        "Dienstags",
    )
    assert roles(club) == {alice.username: Role.OWNER}
    # A second approval (double click, another staff member) returns the same club.
    assert clubs.approve_club_request(request.pk, staff()) == club
    assert ClubMembership.objects.filter(club=club).count() == 1
    request.refresh_from_db()
    assert (request.status, request.club) == (Decision.APPROVED, club)


def test_only_staff_decide_and_a_declined_request_makes_no_club():
    request = clubs.request_club(UserFactory(), name="Nachteulen")
    with pytest.raises(clubs.ClubError, match="Only site moderators"):
        clubs.approve_club_request(request.pk, UserFactory())
    clubs.decline_club_request(request.pk, staff())
    with pytest.raises(clubs.ClubError, match="declined already"):
        clubs.approve_club_request(request.pk, staff())
    request.refresh_from_db()
    assert (request.status, request.club) == (Decision.DECLINED, None)


def test_bad_club_requests_are_refused_in_words():
    ClubFactory(name="Eichel Ass", slug="eichel-ass")
    with pytest.raises(clubs.ClubError, match="exists already"):
        clubs.request_club(UserFactory(), name="eichel ass")
    with pytest.raises(clubs.ClubError, match="name"):
        clubs.request_club(UserFactory(), name="   ")
    with pytest.raises(clubs.ClubError, match="another name"):
        clubs.request_club(UserFactory(), name="Request")
    clubs.request_club(UserFactory(), name="Herz Dame")
    with pytest.raises(clubs.ClubError, match="requested already"):
        clubs.request_club(UserFactory(), name="Herz-Dame")
    assert ClubRequest.objects.count() == 1


def test_staff_create_a_club_with_an_owner():
    owner = UserFactory()
    club = clubs.create_club(name="Grün Sieben", owner=owner, by=staff())
    assert roles(club) == {owner.username: Role.OWNER}
    with pytest.raises(clubs.ClubError):
        clubs.create_club(name="Anderer", owner=None, by=owner)


def test_joining_by_request_needs_an_organiser_or_owner():
    club, owner = club_with_owner()
    player = UserFactory()
    request = clubs.request_membership(club, player, "Hallo!")
    assert clubs.request_membership(club, player) == request  # asking twice: one request
    member = MembershipFactory(club=club).user
    with pytest.raises(clubs.ClubError, match="owners and organisers"):
        clubs.approve_membership(request.pk, member)
    assert player.username not in roles(club)
    clubs.approve_membership(request.pk, owner)
    clubs.approve_membership(request.pk, owner)  # twice: nothing more
    assert roles(club)[player.username] == Role.MEMBER
    with pytest.raises(clubs.ClubError, match="decided already"):
        clubs.decline_membership(request.pk, owner)
    with pytest.raises(clubs.ClubError, match="member of this club already"):
        clubs.request_membership(club, player)


def test_an_organiser_declines_a_request():
    club, _owner = club_with_owner()
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    player = UserFactory()
    request = clubs.request_membership(club, player)
    clubs.decline_membership(request.pk, organiser)
    assert player.username not in roles(club)
    assert MembershipRequest.objects.get(pk=request.pk).status == Decision.DECLINED


def test_an_invite_link_joins_until_it_is_revoked_or_expired():
    club, owner = club_with_owner()
    invite = clubs.create_invite_link(club, owner)
    assert len(invite.token) >= 30
    first, second = UserFactory(), UserFactory()
    clubs.request_membership(club, first)
    clubs.join_by_invite(invite.token, first)
    clubs.join_by_invite(invite.token, first)  # again: still one membership
    assert roles(club)[first.username] == Role.MEMBER
    assert MembershipRequest.objects.get(user=first).status == Decision.APPROVED
    assert ClubInvite.objects.get(pk=invite.pk).uses == 1
    clubs.revoke_invite_link(invite.pk, owner)
    with pytest.raises(clubs.ClubError, match="withdrawn"):
        clubs.join_by_invite(invite.token, second)
    with pytest.raises(clubs.ClubError, match="not valid"):
        clubs.join_by_invite("no-such-token", second)
    soon = clubs.create_invite_link(club, owner, timezone.now() + dt.timedelta(minutes=5))
    ClubInvite.objects.filter(pk=soon.pk).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1)
    )
    with pytest.raises(clubs.ClubError, match="expired"):
        clubs.join_by_invite(soon.token, second)
    assert second.username not in roles(club)


def test_invite_links_are_made_by_owners_and_organisers_only_and_not_in_the_past():
    club, owner = club_with_owner()
    member = MembershipFactory(club=club).user
    with pytest.raises(clubs.ClubError):
        clubs.create_invite_link(club, member)
    with pytest.raises(clubs.ClubError, match="expired already"):
        clubs.create_invite_link(club, owner, timezone.now() - dt.timedelta(hours=1))
    invite = clubs.create_invite_link(club, owner)
    with pytest.raises(clubs.ClubError):
        clubs.revoke_invite_link(invite.pk, member)
    assert ClubInvite.objects.get(pk=invite.pk).revoked_at is None


def test_owners_manage_roles_and_the_last_owner_stays():
    club, owner = club_with_owner()
    organiser = MembershipFactory(club=club, role=Role.ORGANISER).user
    member = MembershipFactory(club=club).user
    with pytest.raises(clubs.ClubError, match="owners"):
        clubs.change_role(club, member.pk, Role.ORGANISER, organiser)
    with pytest.raises(clubs.ClubError, match="needs an owner"):
        clubs.change_role(club, owner.pk, Role.MEMBER, owner)
    with pytest.raises(clubs.ClubError, match="last owner"):
        clubs.leave_club(club, owner)
    with pytest.raises(clubs.ClubError, match="last owner"):
        clubs.remove_member(club, owner.pk, owner)
    with pytest.raises(clubs.ClubError, match="Unknown role"):
        clubs.change_role(club, member.pk, "king", owner)
    assert roles(club)[owner.username] == Role.OWNER
    clubs.change_role(club, organiser.pk, Role.OWNER, owner)
    clubs.change_role(club, owner.pk, Role.MEMBER, organiser)  # now there is another owner
    assert roles(club) == {
        owner.username: Role.MEMBER,
        organiser.username: Role.OWNER,
        member.username: Role.MEMBER,
    }
    assert clubs.remove_member(club, member.pk, organiser) is True
    assert clubs.remove_member(club, member.pk, organiser) is False
    assert clubs.leave_club(club, owner) is True
    assert roles(club) == {organiser.username: Role.OWNER}


@pytest.mark.django_db(transaction=True)
def test_two_owners_demoting_each_other_at_once_leave_one_owner(monkeypatch):
    club = ClubFactory()
    first = MembershipFactory(club=club, role=Role.OWNER).user
    second = MembershipFactory(club=club, role=Role.OWNER).user
    # Each demotion waits (up to a second) at its write for the other to get there too: were
    # the two not serialised, both would have counted two owners and both demoted.
    at_save = threading.Barrier(2, timeout=1.0)
    original_save = ClubMembership.save

    def save_when_both_are_here(self, *args, **kwargs):
        if kwargs.get("update_fields") == ["role"]:
            with contextlib.suppress(threading.BrokenBarrierError):
                at_save.wait()
        return original_save(self, *args, **kwargs)

    monkeypatch.setattr(ClubMembership, "save", save_when_both_are_here)
    outcomes: list[str] = []

    def demote(target, by):
        try:
            clubs.change_role(club, target.pk, Role.MEMBER, by)
            outcomes.append("done")
        except clubs.ClubError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=demote, args=(second, first)),
        threading.Thread(target=demote, args=(first, second)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["done", "refused"]
    assert ClubMembership.objects.filter(club=club, role=Role.OWNER).count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_invite_link_opened_twice_at_once_makes_one_membership():
    club = ClubFactory()
    owner = MembershipFactory(club=club, role=Role.OWNER).user
    invite = clubs.create_invite_link(club, owner)
    player = UserFactory()
    barrier = threading.Barrier(2)
    errors: list[Exception] = []

    def join():
        try:
            barrier.wait()
            clubs.join_by_invite(invite.token, player)
        except Exception as error:  # noqa: BLE001 - any failure fails the test below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=join) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert ClubMembership.objects.filter(club=club, user=player).count() == 1
    assert ClubInvite.objects.get(pk=invite.pk).uses == 1
