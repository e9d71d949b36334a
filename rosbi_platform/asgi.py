"""ASGI entry point: plain HTTP through Django, websockets through Channels' URL router."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rosbi_platform.settings")

# Django must be set up before anything imports models (the consumers do).
django_asgi_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from rosbi_platform.gc_tuning import tune_garbage_collector  # noqa: E402
from rosbi_platform.routing import websocket_urlpatterns  # noqa: E402
from rosbi_platform.ws_auth import auth_middleware_stack  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_application,
        "websocket": AllowedHostsOriginValidator(
            auth_middleware_stack(URLRouter(websocket_urlpatterns))
        ),
    }
)

# Last, once everything a worker needs is imported: see rosbi_platform/gc_tuning.py.
tune_garbage_collector(settings.GC_THRESHOLDS)
