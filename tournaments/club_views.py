"""Club pages: the club (events, results archive, ladder, seasons), joining and leaving,
member management for owners and organisers, seasons, and a player's history.

Thin: forms in, service calls (``rosbi_platform.accounts.clubs``, ``tournaments.seasons``)
and selector reads (``tournaments.club_selectors``) out.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rosbi_platform.accounts import clubs
from rosbi_platform.accounts import selectors as accounts_selectors
from rosbi_platform.accounts.models import Club, ClubMembership
from tournaments import club_selectors, seasons
from tournaments.club_forms import (
    AddEventForm,
    ClubRequestForm,
    HistoryFilterForm,
    InviteForm,
    MembershipRequestForm,
    RoleForm,
    SeasonForm,
)
from tournaments.common import TournamentError
from tournaments.models import ClubSeason

PAGE_SIZE = 25


def club_list(request: HttpRequest) -> HttpResponse:
    """Every club, and (signed in) the form to ask for a new one."""
    return render(
        request,
        "clubs/list.html",
        {
            "clubs": accounts_selectors.list_clubs(),
            "form": ClubRequestForm(),
            "my_requests": accounts_selectors.club_requests_of(request.user)
            if request.user.is_authenticated
            else [],
        },
    )


@login_required
@require_POST
def request_club(request: HttpRequest) -> HttpResponse:
    form = ClubRequestForm(request.POST)
    if form.is_valid():
        try:
            clubs.request_club(request.user, **form.cleaned_data)
        except clubs.ClubError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request, _("Thank you: the staff will look at your request for a new club.")
            )
    else:
        messages.error(request, _("Please give the club a name."))
    return redirect("clubs:list")


def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    role = accounts_selectors.club_role(request.user, club.pk)
    return render(
        request,
        "clubs/club.html",
        {
            "club": club,
            "role": role,
            "role_label": dict(ClubMembership.Role.choices).get(role, ""),
            "can_organise": accounts_selectors.is_club_organiser(request.user, club.pk),
            "pending": accounts_selectors.pending_membership_request(club, request.user),
            "join_form": MembershipRequestForm(),
            "upcoming": club_selectors.upcoming_events(club),
            "archive": club_selectors.results_archive(club),
            "ladder": club_selectors.club_ladder(club),
            "seasons": club_selectors.seasons_of(club),
            "memberships": club_selectors.club_memberships(club),
        },
    )


@login_required
@require_POST
def request_membership(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    form = MembershipRequestForm(request.POST)
    message = form.cleaned_data["message"] if form.is_valid() else ""
    try:
        clubs.request_membership(club, request.user, message)
        messages.success(request, _("Your request has been sent to the club's organisers."))
    except clubs.ClubError as error:
        messages.error(request, str(error))
    return redirect("clubs:detail", slug=club.slug)


@login_required
@require_POST
def leave_club(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    try:
        if clubs.leave_club(club, request.user):
            messages.success(request, _("You have left %(club)s.") % {"club": club.name})
    except clubs.ClubError as error:
        messages.error(request, str(error))
    return redirect("clubs:detail", slug=club.slug)


def join_by_invite(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows whose invitation it is; POST (signed in) joins."""
    invite = accounts_selectors.invite_by_token(token)
    if invite is None:
        raise Http404(_("This invite link is not valid."))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{_login_url()}?next={request.path}")
        try:
            clubs.join_by_invite(token, request.user)
            messages.success(request, _("Welcome to %(club)s!") % {"club": invite.club.name})
            return redirect("clubs:detail", slug=invite.club.slug)
        except clubs.ClubError as error:
            messages.error(request, str(error))
    return render(
        request,
        "clubs/invite.html",
        {
            "invite": invite,
            "club": invite.club,
            "role": accounts_selectors.club_role(request.user, invite.club_id),
        },
    )


def _login_url() -> str:
    from django.conf import settings
    from django.shortcuts import resolve_url

    return resolve_url(settings.LOGIN_URL)


# --------------------------------------------------------------------------- member management


def _refused() -> HttpResponse:
    return HttpResponseForbidden(_("Only the club's owners and organisers can do this."))


@login_required
def members(request: HttpRequest, slug: str) -> HttpResponse:
    """The owners' and organisers' page: requests to join, invite links, members and roles
    (roles are changed by owners)."""
    club = get_object_or_404(Club, slug=slug)
    if not accounts_selectors.is_club_organiser(request.user, club.pk):
        return _refused()
    return render(
        request,
        "clubs/members.html",
        {
            "club": club,
            "is_owner": accounts_selectors.is_club_owner(request.user, club.pk),
            "memberships": club_selectors.club_memberships(club),
            "requests": accounts_selectors.pending_membership_requests(club),
            "invites": accounts_selectors.active_invites(club),
            "invite_form": InviteForm(),
            "roles": RoleForm.base_fields["role"].choices,
        },
    )


def _public_name(user) -> str:
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile is not None else "") or user.get_username()


def _back_to_members(slug: str) -> HttpResponse:
    return redirect("clubs:members", slug=slug)


@login_required
@require_POST
def change_role(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unknown role."))
        return _back_to_members(slug)
    try:
        membership = clubs.change_role(club, user_id, form.cleaned_data["role"], request.user)
        messages.success(
            request,
            _("%(name)s is now: %(role)s.")
            % {"name": _public_name(membership.user), "role": membership.get_role_display()},
        )
    except clubs.ClubError as error:
        messages.error(request, str(error))
    return _back_to_members(slug)


@login_required
@require_POST
def remove_member(request: HttpRequest, slug: str, user_id: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    try:
        if clubs.remove_member(club, user_id, request.user):
            messages.success(request, _("The member has been removed from the club."))
    except clubs.ClubError as error:
        messages.error(request, str(error))
    return _back_to_members(slug)


@login_required
@require_POST
def decide_request(request: HttpRequest, slug: str, request_id: int, decision: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    pending = accounts_selectors.pending_membership_requests(club).filter(pk=request_id).first()
    decide = {"approve": clubs.approve_membership, "decline": clubs.decline_membership}.get(
        decision
    )
    if decide is None:
        raise Http404(_("No such action."))
    if pending is None:
        messages.info(request, _("This request was decided already."))
        return _back_to_members(slug)
    try:
        decide(pending.pk, request.user)
        if decision == "approve":
            messages.success(
                request, _("%(name)s is now a member.") % {"name": _public_name(pending.user)}
            )
        else:
            messages.success(request, _("The request has been declined."))
    except clubs.ClubError as error:
        messages.error(request, str(error))
    return _back_to_members(slug)


@login_required
@require_POST
def create_invite(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Please choose how long the link works."))
        return _back_to_members(slug)
    try:
        clubs.create_invite_link(club, request.user, form.expires_at())
        messages.success(request, _("A new invite link is ready: copy it below."))
    except clubs.ClubError as error:
        messages.error(request, str(error))
    return _back_to_members(slug)


@login_required
@require_POST
def revoke_invite(request: HttpRequest, slug: str, invite_id: int) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    invite = get_object_or_404(club.invites, pk=invite_id)
    try:
        clubs.revoke_invite_link(invite.pk, request.user)
        messages.success(request, _("The invite link no longer works."))
    except clubs.ClubError as error:
        messages.error(request, str(error))
    return _back_to_members(slug)


# --------------------------------------------------------------------------- seasons


@login_required
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    if not accounts_selectors.is_club_organiser(request.user, club.pk):
        return _refused()
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = seasons.create_season(club=club, by=request.user, **form.service_fields())
        except TournamentError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("The season %(name)s is set up.") % {"name": season.name})
            return redirect("clubs:season", slug=club.slug, pk=season.pk)
    return render(request, "clubs/season_form.html", {"club": club, "form": form})


def _season(slug: str, pk: int) -> ClubSeason:
    return get_object_or_404(ClubSeason.objects.select_related("club"), pk=pk, club__slug=slug)


def season_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The season table across its events (best N of M), its events, and for a ladder season
    the members' rating gained in it."""
    season = _season(slug, pk)
    can_organise = accounts_selectors.is_club_organiser(request.user, season.club_id)
    events = club_selectors.season_events(season)
    return render(
        request,
        "clubs/season.html",
        {
            "club": season.club,
            "season": season,
            "rows": club_selectors.season_rows(season),
            "ladder_rows": club_selectors.season_ladder_rows(season),
            "events": events,
            "finished_events": sum(1 for e in events if e.status == e.Status.FINISHED),
            "can_organise": can_organise,
            "add_form": AddEventForm(events=club_selectors.assignable_events(season))
            if can_organise and season.status != ClubSeason.Status.CLOSED
            else None,
        },
    )


@login_required
@require_POST
def season_action(request: HttpRequest, slug: str, pk: int, action: str) -> HttpResponse:
    season = _season(slug, pk)
    run = {"open": seasons.open_season, "close": seasons.close_season}.get(action)
    if run is None:
        raise Http404(_("No such action."))
    if not accounts_selectors.is_club_organiser(request.user, season.club_id):
        return _refused()
    try:
        run(season.pk, request.user)
        if action == "open":
            messages.success(request, _("The season is open."))
        else:
            messages.success(request, _("The season is closed and its table is stored."))
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect("clubs:season", slug=slug, pk=season.pk)


@login_required
@require_POST
def season_event(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Add an event to the season (``remove`` takes one out)."""
    season = _season(slug, pk)
    if not accounts_selectors.is_club_organiser(request.user, season.club_id):
        return _refused()
    try:
        if request.POST.get("remove"):
            tournament = season.events.filter(pk=request.POST.get("remove")).first()
            if tournament is None:
                raise TournamentError(_("This event is not in the season."))
            seasons.assign_event_to_season(tournament.pk, None, request.user)
            messages.success(request, _("The event is no longer part of the season."))
        else:
            form = AddEventForm(request.POST, events=club_selectors.assignable_events(season))
            if not form.is_valid():
                raise TournamentError(_("Choose one of the club's events on the season's days."))
            seasons.assign_event_to_season(form.cleaned_data["tournament"], season.pk, request.user)
            messages.success(request, _("The event now counts for the season."))
    except TournamentError as error:
        messages.error(request, str(error))
    return redirect("clubs:season", slug=slug, pk=season.pk)


# --------------------------------------------------------------------------- player history


def player_history(request: HttpRequest, username: str) -> HttpResponse:
    """Every finished Partie and event of a player (public ones for other viewers), with
    places, totals, rating changes and replays; filtered by club and season; paginated."""
    player = get_object_or_404(get_user_model(), username=username)
    club_choices = club_selectors.history_clubs(player)
    form = HistoryFilterForm(
        request.GET or None,
        clubs=club_choices,
        seasons=club_selectors.history_seasons(player),
    )
    club = season = None
    if form.is_valid():
        if form.cleaned_data["club"]:
            club = club_choices.filter(pk=form.cleaned_data["club"]).first()
        if form.cleaned_data["season"]:
            season = ClubSeason.objects.filter(pk=form.cleaned_data["season"]).first()
    parties = Paginator(
        club_selectors.history_parties(player, request.user, club=club, season=season), PAGE_SIZE
    ).get_page(request.GET.get("page"))
    entries = Paginator(
        club_selectors.history_events(player, club=club, season=season), PAGE_SIZE
    ).get_page(request.GET.get("events_page"))
    query = request.GET.copy()
    query.pop("page", None)
    query.pop("events_page", None)
    profile = getattr(player, "profile", None)
    return render(
        request,
        "clubs/history.html",
        {
            "player": player,
            "name": (profile.display_name if profile else "") or player.get_username(),
            "form": form,
            "parties": parties,
            "partie_lines": club_selectors.partie_lines(player, list(parties.object_list)),
            "entries": entries,
            "event_lines": club_selectors.event_lines(list(entries.object_list)),
            "filter_query": query.urlencode(),
        },
    )
