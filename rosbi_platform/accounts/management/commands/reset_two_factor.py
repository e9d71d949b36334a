"""``manage.py reset_two_factor USER``: a person lost their phone and recovery codes.

Removes every authenticator and recovery code of the account (``two_factor.reset_two_factor``).
Whoever runs it first makes sure the request really comes from the account's owner
(docs/accounts.md). A site moderator or club owner is then asked to set it up again at their
next log-in.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rosbi_platform.accounts import two_factor
from rosbi_platform.accounts.models import User


class Command(BaseCommand):
    help = "Turn off two-factor log-in for USER (lost phone and recovery codes)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")

    def handle(self, *args, username: str, **options) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user {username!r}.")
        removed = two_factor.reset_two_factor(user)
        required = two_factor.must_use_two_factor(user)
        self.stdout.write(
            f"{user.username}: two-factor log-in reset ({removed} device(s) removed)"
            + ("; they must set it up again at their next log-in." if required else ".")
        )
