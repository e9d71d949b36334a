"""Lobby, table and replay pages: thin views over ``games.lobby`` (writes) and ``selectors`` (reads)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games import aborts, hints, invitations, rematches, resignations, selectors
from games import lobby as lobby_actions
from games.events import ServiceError
from games.forms import CreateTableForm
from games.models import Table
from rosbi_platform.friends import selectors as friends_selectors


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    signed_in = request.user.is_authenticated
    your_tables = selectors.tables_of_user(request.user) if signed_in else []
    return render(
        request,
        "games/lobby.html",
        {
            "tables": selectors.open_tables(),
            "your_tables": your_tables,
            "friends_online": selectors.friends_online(request.user) if signed_in else [],
            "invitations": selectors.invitations_for(request.user) if signed_in else [],
            "form": CreateTableForm(),
            "tables_json_url": reverse("games:tables_json"),
        },
    )


@require_GET
def tables_json(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"tables": selectors.open_tables_json()})


@login_required
@require_POST
def create_table(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "games/lobby.html",
            {"tables": selectors.open_tables(), "form": form, "your_tables": []},
            status=400,
        )
    table = lobby_actions.create_table(owner=request.user, **form.cleaned_data)
    return redirect("games:table", table_id=table.pk)


def _invite_from(request: HttpRequest, table_id: int | None = None) -> str | None:
    """The invite code of a private table: from the form or query, else the one remembered
    in the session when the invite link was opened (so the page's plain forms work too)."""
    given = request.POST.get("invite") or request.GET.get("invite")
    if given:
        return given
    if table_id is not None:
        return request.session.get(f"invite:{table_id}")
    return None


def _action(request: HttpRequest, table_id: int, run) -> HttpResponse:
    try:
        run()
    except ServiceError as error:
        messages.error(request, error.message)
    except Table.DoesNotExist:
        raise Http404(_("No such table.")) from None
    url = reverse("games:table", args=[table_id])
    invite = _invite_from(request)
    return redirect(f"{url}?invite={invite}" if invite else url)


@login_required
@require_POST
def join_table(request: HttpRequest, table_id: int) -> HttpResponse:
    seat = request.POST.get("seat")
    seat_number = int(seat) if seat and seat.isdigit() else None
    return _action(
        request,
        table_id,
        lambda: lobby_actions.join_table(
            table_id, request.user, seat_number, _invite_from(request, table_id)
        ),
    )


@login_required
@require_POST
def leave_table(request: HttpRequest, table_id: int) -> HttpResponse:
    return _action(request, table_id, lambda: lobby_actions.leave_table(table_id, request.user))


@login_required
@require_POST
def start_table(request: HttpRequest, table_id: int) -> HttpResponse:
    fill = request.POST.get("fill_with_bots")
    fill_with_bots = None if fill is None else fill in ("1", "true", "on", "yes")
    return _action(
        request,
        table_id,
        lambda: lobby_actions.start_table(table_id, request.user, fill_with_bots=fill_with_bots),
    )


@login_required
@require_POST
def resign(request: HttpRequest, table_id: int) -> HttpResponse:
    return _action(request, table_id, lambda: resignations.resign_partie(table_id, request.user))


@login_required
@require_POST
def abort(request: HttpRequest, table_id: int) -> HttpResponse:
    """The owner (or a site moderator) aborts at once; any other player votes to abort."""

    def run() -> None:
        if not aborts.abort_table(table_id, request.user):
            messages.info(request, _("Your vote to abort is in: every player must agree."))

    return _action(request, table_id, run)


@login_required
@require_POST
def rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    """Offer or accept a rematch: to the new table once everyone agreed."""
    started: list[int] = []

    def run() -> None:
        new_table = rematches.offer_rematch(table_id, request.user)
        if new_table is None:
            messages.info(request, _("Rematch offered: it starts when every player agrees."))
        else:
            started.append(new_table)

    response = _action(request, table_id, run)
    return redirect("games:table", table_id=started[0]) if started else response


@login_required
@require_POST
def decline_rematch(request: HttpRequest, table_id: int) -> HttpResponse:
    return _action(request, table_id, lambda: rematches.decline_rematch(table_id, request.user))


@login_required
@require_POST
def invite(request: HttpRequest, table_id: int) -> HttpResponse:
    seat = request.POST.get("seat", "")
    seat_number = int(seat) if seat.isdigit() else None

    def run() -> None:
        invitation = invitations.invite_player(
            table_id, request.user, request.POST.get("username", ""), seat_number
        )
        messages.success(
            request,
            _("%(name)s is invited and will find the invitation in the lobby.")
            % {"name": selectors.user_display_name(invitation.user)},
        )

    return _action(request, table_id, run)


@login_required
@require_POST
def decline_invitation(request: HttpRequest, table_id: int) -> HttpResponse:
    try:
        invitations.decline_invitation(table_id, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    except Table.DoesNotExist:
        raise Http404(_("No such table.")) from None
    return redirect("games:lobby")


@login_required
@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    invite = _invite_from(request)
    your_seat = selectors.seat_of_user(table_id, request.user)
    invited = selectors.is_invited(table_id, request.user)
    if not selectors.may_see_table(table, request.user, invite):
        return HttpResponseForbidden(_("This table is private: you need the invite link."))
    if invite == table.invite_code:
        request.session[f"invite:{table_id}"] = invite
    ws_path = f"/ws/tables/{table_id}/" + (f"?invite={invite}" if invite else "")
    scheme = "wss" if request.is_secure() else "ws"
    profile = getattr(request.user, "profile", None)
    invite_url = request.build_absolute_uri(
        reverse("games:table", args=[table_id]) + f"?invite={table.invite_code}"
    )
    return render(
        request,
        "games/table.html",
        {
            "table": table,
            "table_id": table_id,
            "ws_url": f"{scheme}://{request.get_host()}{ws_path}",
            "card_look": getattr(profile, "card_look", "german"),
            "your_seat": your_seat,
            "is_owner": table.owner_id == request.user.pk,
            "invite_url": invite_url if your_seat is not None or table.public else None,
            "invited": invited,
            "friends": friends_selectors.followed_users(request.user),
            "hints": hints.hints_allowed(table),
        },
    )


@require_GET
def replay(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if table.status != Table.Status.FINISHED:
        raise Http404(_("The Partie is not finished yet."))
    partie = getattr(table, "partie", None)
    may_see = partie is not None and selectors.may_see_partie(request.user, partie)
    data = selectors.replay_data(table) if may_see else None
    if data is None:
        raise Http404(_("No finished Partie you may see here."))
    profile = getattr(request.user, "profile", None) if request.user.is_authenticated else None
    return render(
        request,
        "games/replay.html",
        {
            "table": table,
            "table_id": table_id,
            "replay": data,
            "card_look": getattr(profile, "card_look", "german"),
        },
    )


@require_GET
def record_json(request: HttpRequest, table_id: int) -> JsonResponse:
    """The finished Partie as a RULES.md Partie record (for exports and the score CLI)."""
    table = get_object_or_404(Table, pk=table_id, status=Table.Status.FINISHED)
    partie = getattr(table, "partie", None)
    if partie is None or not selectors.may_see_partie(request.user, partie):
        raise Http404(_("No finished Partie you may see here."))
    data = selectors.replay_data(table, with_steps=False)
    if data is None:
        raise Http404(_("No Partie at this table."))
    return JsonResponse(data["partie_record"])
