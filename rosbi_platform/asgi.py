"""ASGI entry point: plain HTTP through Django, websockets through Channels' URL router."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")

# Django must be set up before anything imports models (the consumers do).
django.setup(set_prefix=False)

from rosbi_platform.http_threads import ReusedThreadASGIHandler  # noqa: E402

# Django's ASGI handler, with request threads reused instead of one started per request.
django_asgi_application = ReusedThreadASGIHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402

from rosbi_platform.gc_tuning import tune_garbage_collector  # noqa: E402
from rosbi_platform.routing import websocket_urlpatterns  # noqa: E402
from rosbi_platform.ws_auth import TokenOrOriginMiddleware, auth_middleware_stack  # noqa: E402

# Browsers: an allowed Origin and the session. Programs: no Origin, a ``play`` token in the
# Authorization header (rosbi_platform/ws_auth.py); a foreign Origin is refused either way.
application = ProtocolTypeRouter(
    {
        "http": django_asgi_application,
        "websocket": TokenOrOriginMiddleware(
            auth_middleware_stack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Last, once everything a worker needs is imported: see rosbi_platform/gc_tuning.py.
tune_garbage_collector(settings.GC_THRESHOLDS)
