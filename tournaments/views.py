from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.selectors import list_upcoming_tournaments


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(request, "tournaments/list.html", {"tournaments": list_upcoming_tournaments()})
