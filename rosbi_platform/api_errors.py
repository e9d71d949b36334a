"""The API's one error shape for answers no API view wrote.

An unknown ``/api/...`` path, a body too large for Django, a page-level 404 while ``DEBUG``
is on (Django then answers with its technical HTML page, not ``handler404``): programs still
get ``{"detail", "code"}`` JSON, while every page outside ``/api/`` keeps its HTML. The
documentation pages (``/api/docs/``, ``/api/redoc/``) are HTML when they succeed and JSON
when they fail, like the rest of ``/api/``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.response import Response

API_PREFIX = "/api/"


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def error_body(status: int) -> dict[str, str]:
    """A sentence and a code for an error status that no API view explained."""
    from rosbi_platform.api import STATUS_CODES, body_too_large_message

    sentences = {
        400: _("The request could not be read."),
        403: _("You may not do this."),
        404: _("There is nothing here, or you may not see it."),
        405: _("This address does not take this method."),
        413: body_too_large_message(),
    }
    if status >= 500:
        return {
            "detail": _("Something went wrong on our side. Please try again later."),
            "code": "server_error",
        }
    return {
        "detail": sentences.get(status, _("The request was refused.")),
        "code": STATUS_CODES.get(status, "error"),
    }


def api_error_response(status: int) -> JsonResponse:
    return JsonResponse(error_body(status), status=status)


class ApiErrorShapeMiddleware:
    """Turns an error answer under ``/api/`` that no API view wrote (Django's HTML or plain
    text) into the API's error shape."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code >= 400
            and is_api(request)
            # An API view's own answer is already in the shape (JSON, or one JSON line of
            # the JSON Lines and CSV exports).
            and not isinstance(response, Response)
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            replacement = api_error_response(response.status_code)
            for header in ("Allow", "Retry-After", "WWW-Authenticate"):
                if header in response:
                    replacement[header] = response[header]
            return replacement
        return response
