"""Log-in lock-outs (django-axes): per (user name, address) pair, plus a higher per-address limit.

Locking on the user name alone let anyone lock anyone out: five wrong passwords for ``dieter``
from one address refused dieter's right password from every other address. Failures are
therefore counted twice, as axes' ``AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"],
"ip_address"]`` says: per pair (``LOGIN_FAILURE_LIMITS["pair"]``, which locks that name at
that address only) and per address over all names (``LOGIN_FAILURE_LIMITS["address"]``,
which stops one address from guessing through many accounts). Axes compares the largest of
the counts with one limit; ``LockoutHandler`` scales the per-address count so that each count
meets its own limit.
"""

from __future__ import annotations

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_lockout_parameters
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest

from rosbi_platform.accounts.models import User

USERNAME_MAX_LENGTH = User._meta.get_field("username").max_length


def login_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The user name axes records: at most as long as a real one (axes stores it in a
    255-character column, and a 100,000-character name made the log-in answer 500)."""
    if credentials:
        name = credentials.get("username")
    else:
        name = getattr(request, "POST", {}).get("username")
    if not isinstance(name, str):
        return None
    return name[:USERNAME_MAX_LENGTH]


class LockoutHandler(AxesDatabaseHandler):
    """Axes' database handler with one limit per lock-out parameter set (see the module)."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> int:
        limits = settings.LOGIN_FAILURE_LIMITS
        parameters = get_lockout_parameters(request, credentials)
        attempts_list = self.get_user_attempts(request, credentials)
        scaled = [0]
        for parameter, attempts in zip(parameters, attempts_list, strict=True):
            count = attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0
            if parameter == "ip_address":
                # count >= address limit exactly when this reaches the pair limit.
                count = count * limits["pair"] // limits["address"]
            scaled.append(count)
        return max(scaled)

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        """A right password clears that name's failures at that address only: clearing the
        address's count too would let one guesser reset it by logging in to an account of
        their own between guesses."""
        username = login_username(request, credentials)
        deleted, _by_model = AccessAttempt.objects.filter(
            username=username, ip_address=request.axes_ip_address
        ).delete()
        return deleted
