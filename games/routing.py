"""Websocket routes of the games app; collected by rosbi_platform/routing.py."""

websocket_urlpatterns: list = []
