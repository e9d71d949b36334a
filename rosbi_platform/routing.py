"""All websocket routes: the platform's own plus each app's `routing.websocket_urlpatterns`."""

from django.urls import path

from games.routing import websocket_urlpatterns as games_websocket_urlpatterns
from rosbi_platform.consumers import PingConsumer
from tournaments.routing import websocket_urlpatterns as tournaments_websocket_urlpatterns

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    *games_websocket_urlpatterns,
    *tournaments_websocket_urlpatterns,
]
