"""The notification centre: the list (newest first, by pages), marking read, the switches."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from rosbi_platform.notifications import selectors, services
from rosbi_platform.notifications.forms import ChoicesForm


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("notifications:list")
    return redirect(target)


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    page = selectors.notifications_page(request.user, request.GET.get("page"))
    return render(request, "notifications/list.html", {"page": page})


@login_required
@require_POST
def mark_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    services.mark_notifications_read(request.user, [notification_id])
    return _back(request)


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    marked = services.mark_notifications_read(request.user)
    messages.success(request, _("Marked %(count)s notifications read.") % {"count": marked})
    return _back(request)


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    choices = selectors.choices_of(request.user)
    form = ChoicesForm(request.POST or None, choices=choices)
    if request.method == "POST" and form.is_valid():
        services.set_notification_choices(request.user, form.chosen())
        messages.success(request, _("Your notification choices are saved."))
        return redirect("notifications:preferences")
    return render(request, "notifications/preferences.html", {"form": form})
