from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def ladder(request: HttpRequest) -> HttpResponse:
    """The ladder page; rows appear once rated results are stored."""
    return render(request, "ratings/ladder.html", {"rows": []})
