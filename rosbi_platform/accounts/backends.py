"""Django's model backend with the user (and profile) loaded by one prepared statement.

``get_user`` runs for every signed-in page request and every websocket handshake (Channels'
``AuthMiddleware``), so it reads through ``rosbi_platform.prepared``; log-in, permissions and
the "can this user authenticate" rule are Django's own.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import backends
from django.db import router

from rosbi_platform.prepared import user_with_profile


class ModelBackend(backends.ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        from rosbi_platform.accounts.models import User

        user = user_with_profile(user_id, router.db_for_read(User))
        return user if user is not None and self.user_can_authenticate(user) else None
