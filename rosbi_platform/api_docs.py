"""The API's documentation pages (Swagger UI at ``/api/docs/``, Redoc at ``/api/redoc/``).

Both load their bundles from the site's own static files (drf-spectacular-sidecar), never a
CDN: the site's content security policy allows scripts from ``'self'`` only, and many club
rooms have no internet. Swagger UI's start-up script, which drf-spectacular would write
inline, comes from the same address as a separate script (the split view), so the pages need
no exception to the policy. ``OPTIONS`` answers which methods the pages take (DRF's metadata
answer cannot be rendered as an HTML template: it was a 500).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerSplitView
from rest_framework.request import Request


class _HtmlPageOptions:
    """``OPTIONS`` on a documentation page: 200 and ``Allow``, no body."""

    @extend_schema(exclude=True)
    def options(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        response = HttpResponse(status=200)
        response["Allow"] = "GET, HEAD, OPTIONS"
        return response


class SwaggerDocsView(_HtmlPageOptions, SpectacularSwaggerSplitView):
    """Swagger UI with its start-up script served from ``?script`` (no inline script)."""


# Redoc builds its search index in a web worker made from a blob: URL, and its side menu
# always shows Redocly's logo from their CDN (it hides the image when it cannot load, as in an
# offline club room). Only this page allows the two; scripts stay 'self' only.
REDOC_POLICY = {
    "worker-src": ["'self'", "blob:"],
    "img-src": ["'self'", "data:", "https://cdn.redoc.ly"],
}


class RedocDocsView(_HtmlPageOptions, SpectacularRedocView):
    """Redoc without the web fonts its stock page fetches from Google."""

    template_name = "api/redoc.html"

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any):
        response = super().finalize_response(request, response, *args, **kwargs)
        response._csp_update = REDOC_POLICY  # read by django-csp's middleware (csp_update)
        return response
