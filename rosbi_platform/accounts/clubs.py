"""Club management: new clubs (made by site moderators, or requested by a user and approved by
a site moderator), joining (by request, approved by the club's owners or organisers, or by a
secret invite link), roles (member, organiser, owner; owners manage them) and leaving.

Who may do what is asked of ``accounts.permissions`` only (``is_staff`` gives nothing here).
Site moderators moderate, they don't take over: they may act on any club's requests, invites,
members and roles, but nobody (moderator, owner or organiser) decides their own join request
or raises their own role; an owner may only step down (while another owner remains).

Every write that changes who belongs to a club, or in which role, runs in one transaction
holding the club's row lock (``select_for_update``), so two owners acting at once queue behind
each other: the last owner can never be demoted, removed or leave, and a request is decided
once. Refusals raise ``ClubError`` with a sentence for people and change nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from rosbi_platform.accounts import permissions
from rosbi_platform.accounts.models import (
    Club,
    ClubInvite,
    ClubMembership,
    ClubRequest,
    Decision,
    MembershipRequest,
    User,
)

Role = ClubMembership.Role


class ClubError(Exception):
    """A refused club action, with a sentence for people."""


def _lock_club(club_id: int) -> Club:
    return Club.objects.select_for_update().get(pk=club_id)


def _require_moderator(by: Any) -> None:
    if not permissions.may_decide_club_requests(by):
        raise ClubError(_("Only site moderators can decide about new clubs."))


def _require_owner(club: Club, by: Any) -> None:
    if not permissions.may_own_club(by, club.pk):
        raise ClubError(_("Only the club's owners can do this."))


def _require_organiser(club: Club, by: Any) -> None:
    if not permissions.may_manage_club(by, club.pk):
        raise ClubError(_("Only the club's owners and organisers can do this."))


def _owner_count(club: Club) -> int:
    return ClubMembership.objects.filter(club=club, role=Role.OWNER).count()


# --------------------------------------------------------------------------- new clubs


# Words of the /clubs/ addresses that a club's slug must not take.
RESERVED_SLUGS = {"request", "invite"}


def _slug_for(name: str) -> str:
    slug = slugify(name)[:100]
    if not slug:
        raise ClubError(_("Please give the club a name with letters or digits."))
    if slug in RESERVED_SLUGS:
        raise ClubError(_("Please choose another name for the club."))
    return slug


def _check_free(name: str, slug: str) -> None:
    if Club.objects.filter(name__iexact=name).exists() or Club.objects.filter(slug=slug).exists():
        raise ClubError(_("A club with this name exists already."))


def create_club(*, name: str, description: str = "", owner: User | None, by: Any) -> Club:
    """Staff create a club directly; ``owner`` (if given) becomes its first owner."""
    _require_moderator(by)
    name = name.strip()
    slug = _slug_for(name)
    with transaction.atomic():
        _check_free(name, slug)
        club = Club(name=name, slug=slug, description=description)
        try:
            club.full_clean()
        except ValidationError as error:
            raise ClubError(" ".join(error.messages)) from error
        club.save()
        if owner is not None:
            ClubMembership.objects.create(club=club, user=owner, role=Role.OWNER)
    return club


def request_club(user: User, *, name: str, description: str = "") -> ClubRequest:
    """A user asks for a new club; staff approve or decline it in the admin."""
    name = name.strip()
    if not name:
        raise ClubError(_("Please give the club a name."))
    slug = _slug_for(name)
    _check_free(name, slug)
    if ClubRequest.objects.filter(slug=slug, status=Decision.PENDING).exists():
        raise ClubError(_("A club with this name has been requested already."))
    try:
        with transaction.atomic():
            return ClubRequest.objects.create(
                requested_by=user, name=name, slug=slug, description=description.strip()
            )
    except IntegrityError as error:  # the same name requested at the same moment
        raise ClubError(_("A club with this name has been requested already.")) from error


def approve_club_request(request_id: int, by: Any) -> Club:
    """Create the requested club with the requester as its owner. Approving twice (a double
    click, two staff members) returns the same club."""
    _require_moderator(by)
    with transaction.atomic():
        club_request = ClubRequest.objects.select_for_update().get(pk=request_id)
        if club_request.status == Decision.APPROVED and club_request.club_id is not None:
            return club_request.club
        if club_request.status == Decision.DECLINED:
            raise ClubError(_("This request was declined already."))
        _check_free(club_request.name, club_request.slug)
        club = Club.objects.create(
            name=club_request.name, slug=club_request.slug, description=club_request.description
        )
        ClubMembership.objects.create(club=club, user=club_request.requested_by, role=Role.OWNER)
        club_request.status = Decision.APPROVED
        club_request.club = club
        club_request.decided_at = timezone.now()
        club_request.decided_by = by
        club_request.save(update_fields=["status", "club", "decided_at", "decided_by"])
        return club


def decline_club_request(request_id: int, by: Any) -> ClubRequest:
    """Refuse a club request (once; declining again changes nothing)."""
    _require_moderator(by)
    with transaction.atomic():
        club_request = ClubRequest.objects.select_for_update().get(pk=request_id)
        if club_request.status == Decision.APPROVED:
            raise ClubError(_("This request was approved already."))
        if club_request.status == Decision.PENDING:
            club_request.status = Decision.DECLINED
            club_request.decided_at = timezone.now()
            club_request.decided_by = by
            club_request.save(update_fields=["status", "decided_at", "decided_by"])
        return club_request


# --------------------------------------------------------------------------- joining


def request_membership(club: Club, user: User, message: str = "") -> MembershipRequest:
    """Ask to join ``club``; asking again while the first request waits returns that one."""
    with transaction.atomic():
        _lock_club(club.pk)
        if ClubMembership.objects.filter(club=club, user=user).exists():
            raise ClubError(_("You are a member of this club already."))
        pending = MembershipRequest.objects.filter(
            club=club, user=user, status=Decision.PENDING
        ).first()
        if pending is not None:
            return pending
        return MembershipRequest.objects.create(club=club, user=user, message=message.strip())


def _decide_membership(request_id: int, by: Any, approve: bool) -> MembershipRequest:
    with transaction.atomic():
        club_id = MembershipRequest.objects.values_list("club_id", flat=True).get(pk=request_id)
        club = _lock_club(club_id)
        _require_organiser(club, by)
        membership_request = MembershipRequest.objects.select_for_update().get(pk=request_id)
        if membership_request.user_id == getattr(by, "pk", None):
            raise ClubError(_("Nobody decides their own request to join: another organiser must."))
        if membership_request.status != Decision.PENDING:
            if (membership_request.status == Decision.APPROVED) == approve:
                return membership_request  # decided so already: nothing more to do
            raise ClubError(_("This request was decided already."))
        if approve:
            ClubMembership.objects.get_or_create(
                club=club, user=membership_request.user, defaults={"role": Role.MEMBER}
            )
        membership_request.status = Decision.APPROVED if approve else Decision.DECLINED
        membership_request.decided_at = timezone.now()
        membership_request.decided_by = by
        membership_request.save(update_fields=["status", "decided_at", "decided_by"])
        return membership_request


def approve_membership(request_id: int, by: Any) -> MembershipRequest:
    """The club's owners or organisers let the requester in (as a member)."""
    return _decide_membership(request_id, by, approve=True)


def decline_membership(request_id: int, by: Any) -> MembershipRequest:
    return _decide_membership(request_id, by, approve=False)


def create_invite_link(club: Club, by: Any, expires_at: dt.datetime | None = None) -> ClubInvite:
    """A new secret invite link of the club (owners and organisers)."""
    with transaction.atomic():
        club = _lock_club(club.pk)
        _require_organiser(club, by)
        if expires_at is not None and expires_at <= timezone.now():
            raise ClubError(_("The link would have expired already: choose a later time."))
        return ClubInvite.objects.create(club=club, created_by=by, expires_at=expires_at)


def revoke_invite_link(invite_id: int, by: Any) -> ClubInvite:
    """The link stops working at once (revoking twice keeps the first time)."""
    with transaction.atomic():
        club_id = ClubInvite.objects.values_list("club_id", flat=True).get(pk=invite_id)
        club = _lock_club(club_id)
        _require_organiser(club, by)
        invite = ClubInvite.objects.select_for_update().get(pk=invite_id)
        if invite.revoked_at is None:
            invite.revoked_at = timezone.now()
            invite.save(update_fields=["revoked_at"])
        return invite


def join_by_invite(token: str, user: User) -> ClubMembership:
    """Join the club of a valid invite link; a member who opens it again stays as they are."""
    invite = ClubInvite.objects.filter(token=token).first()
    if invite is None:
        raise ClubError(_("This invite link is not valid."))
    with transaction.atomic():
        club = _lock_club(invite.club_id)
        invite = ClubInvite.objects.select_for_update().get(pk=invite.pk)
        if invite.revoked_at is not None:
            raise ClubError(_("This invite link has been withdrawn."))
        if invite.expires_at is not None and invite.expires_at <= timezone.now():
            raise ClubError(_("This invite link has expired."))
        membership, created = ClubMembership.objects.get_or_create(
            club=club, user=user, defaults={"role": Role.MEMBER}
        )
        if created:
            invite.uses += 1
            invite.save(update_fields=["uses"])
            MembershipRequest.objects.filter(club=club, user=user, status=Decision.PENDING).update(
                status=Decision.APPROVED, decided_at=timezone.now()
            )
        return membership


# --------------------------------------------------------------------------- roles


def change_role(club: Club, user_id: int, role: str, by: Any) -> ClubMembership:
    """Owners set a member's role; the last owner cannot be demoted."""
    if role not in Role.values:
        raise ClubError(_("Unknown role."))
    with transaction.atomic():
        club = _lock_club(club.pk)
        _require_owner(club, by)
        membership = ClubMembership.objects.filter(club=club, user_id=user_id).first()
        if membership is None:
            raise ClubError(_("This player is not a member of the club."))
        if user_id == getattr(by, "pk", None) and membership.role != Role.OWNER:
            # Owners may step down; nobody else (a site moderator included) sets their own role.
            raise ClubError(_("You cannot change your own role in the club."))
        if membership.role == role:
            return membership
        if membership.role == Role.OWNER and _owner_count(club) <= 1:
            raise ClubError(
                _("The club needs an owner: make someone else owner before changing this role.")
            )
        membership.role = role
        membership.save(update_fields=["role"])
        return membership


def remove_member(club: Club, user_id: int, by: Any) -> bool:
    """Owners remove a member (False when they were not one); never the last owner."""
    with transaction.atomic():
        club = _lock_club(club.pk)
        _require_owner(club, by)
        membership = ClubMembership.objects.filter(club=club, user_id=user_id).first()
        if membership is None:
            return False
        if membership.role == Role.OWNER and _owner_count(club) <= 1:
            raise ClubError(_("The last owner cannot be removed."))
        membership.delete()
        return True


def leave_club(club: Club, user: User) -> bool:
    """Leave the club (False when not a member); the last owner must hand over first."""
    with transaction.atomic():
        club = _lock_club(club.pk)
        membership = ClubMembership.objects.filter(club=club, user=user).first()
        if membership is None:
            return False
        if membership.role == Role.OWNER and _owner_count(club) <= 1:
            raise ClubError(
                _("You are the club's last owner: make someone else owner before you leave.")
            )
        membership.delete()
        return True
