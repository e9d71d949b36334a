"""Create demo data: an organiser (a site moderator owning the demo club), six players, a
club and an upcoming tournament.

Idempotent: everything is looked up by a natural key first, so a second run changes nothing.
Passwords are random and printed when the account is created; on a development machine
(``DEBUG``) they are also kept in ``var/demo-logins.json`` (readable by its owner only), so
that ``runplatform`` can show them at the end of every start. ``--reset-passwords`` gives the
demo accounts new ones (``make demo-logins``).
"""

import json
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from rosbi_platform.accounts.models import Club, ClubMembership, Profile, User
from rosbi_platform.accounts.permissions import SITE_MODERATORS_GROUP
from rosbi_platform.accounts.services import add_club_member, ensure_profile
from rosbi_platform.accounts.verification import mark_email_verified
from tournaments.models import Tournament

ORGANISER_USERNAME = "organiser"
DEMO_PLAYERS = [
    ("anna", "Anna", "de"),
    ("bernd", "Bernd", "de"),
    ("clara", "Clara", "en"),
    ("dieter", "Dieter", "de"),
    ("elif", "Elif", "en"),
    ("franz", "Franz", "de"),
]
CLUB_SLUG = "rosbi-demo-club"
TOURNAMENT_SLUG = "demo-cup"


def next_saturday_afternoon() -> timezone.datetime:
    now = timezone.localtime()
    days_ahead = (5 - now.weekday()) % 7 or 7
    day = now + timedelta(days=days_ahead)
    return day.replace(hour=14, minute=0, second=0, microsecond=0)


def demo_logins_path() -> Path | None:
    """Where the demo log-ins are kept: ``settings.DEMO_LOGINS_FILE``, which is
    ``var/demo-logins.json`` when Rosbi runs on its embedded PostgreSQL (a developer's own
    machine, ``make run``) and None (not kept) on any other database."""
    path = getattr(settings, "DEMO_LOGINS_FILE", None)
    return Path(path) if path else None


def read_demo_logins() -> dict[str, Any] | None:
    """The stored demo log-ins (``{"organiser": {...}, "players": {...}}``), or None."""
    path = demo_logins_path()
    if path is None:
        return None
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def remember_demo_logins(
    organiser: str | None = None, players: dict[str, str] | None = None
) -> None:
    """Keep new demo passwords (merged with the ones stored before) where ``runplatform``
    shows them at every start; the file is readable by its owner only."""
    path = demo_logins_path()
    if path is None:
        return
    logins = read_demo_logins() or {}
    if organiser is not None:
        logins["organiser"] = {"username": ORGANISER_USERNAME, "password": organiser}
    if players:
        logins.setdefault("players", {}).update(players)
    path.parent.mkdir(parents=True, exist_ok=True)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        json.dump(logins, handle, indent=2, sort_keys=True)


def make_site_moderator(user: User) -> None:
    """Put ``user`` in the "Site moderators" group (``accounts.permissions``), made by the
    accounts migration; created here too when a flushed database lost it."""
    group, _created = Group.objects.get_or_create(name=SITE_MODERATORS_GROUP)
    group.permissions.add(
        Permission.objects.get(content_type__app_label="accounts", codename="moderate_site")
    )
    user.groups.add(group)


class Command(BaseCommand):
    help = "Create (once) the demo organiser, players, club and tournament."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--reset-passwords",
            action="store_true",
            help="Give the demo organiser and players new passwords and print them.",
        )

    @transaction.atomic
    def handle(self, *args, reset_passwords: bool = False, **options) -> None:
        if reset_passwords:
            self.reset_passwords()
            return
        organiser = User.objects.filter(username=ORGANISER_USERNAME).first()
        if organiser is None:
            password = secrets.token_urlsafe(12)
            # A site moderator (decides club requests and reports, in the admin: hence staff)
            # and the demo club's owner; not a superuser, and running the club's events needs
            # neither (the organiser workspace).
            organiser = User.objects.create_user(
                ORGANISER_USERNAME, "organiser@example.com", password, is_staff=True
            )
            Profile.objects.create(user=organiser, display_name="Organiser")
            mark_email_verified(organiser)
            remember_demo_logins(organiser=password)
            self.stdout.write(f"organiser: created, password: {password}")
        else:
            ensure_profile(organiser)
            self.stdout.write("organiser: unchanged")
        make_site_moderator(organiser)

        players: list[User] = []
        new_player_password = secrets.token_urlsafe(12)
        created_players = []
        for username, display_name, language in DEMO_PLAYERS:
            player = User.objects.filter(username=username).first()
            if player is None:
                player = User.objects.create_user(
                    username, f"{username}@example.com", new_player_password
                )
                Profile.objects.create(user=player, display_name=display_name, language=language)
                mark_email_verified(player)
                created_players.append(username)
            players.append(player)
        if created_players:
            remember_demo_logins(players=dict.fromkeys(created_players, new_player_password))
            self.stdout.write(
                f"players: created {', '.join(created_players)}, "
                f"password for each: {new_player_password}"
            )
        else:
            self.stdout.write("players: unchanged")

        club, club_created = Club.objects.get_or_create(
            slug=CLUB_SLUG,
            defaults={
                "name": "Rosbi Demo Club",
                "description": "A club to try tables, tournaments and the ladder with.",
            },
        )
        existing = set(club.memberships.values_list("user_id", flat=True))
        has_owner = club.memberships.filter(role=ClubMembership.Role.OWNER).exists()
        if organiser.pk not in existing or not has_owner:
            # The demo organiser owns the club: members, roles and seasons on the site.
            add_club_member(club, organiser, ClubMembership.Role.OWNER)
        for player in players:
            if player.pk not in existing:
                add_club_member(club, player)
        added = len({organiser.pk, *(p.pk for p in players)} - existing)
        self.stdout.write(
            f"club: {'created' if club_created else 'unchanged'}, {added} membership(s) added"
        )

        _tournament, tournament_created = Tournament.objects.get_or_create(
            slug=TOURNAMENT_SLUG,
            defaults={
                "club": club,
                "name": "Demo Cup",
                "description": "Three rounds at tables of four; lowest penalty total wins.",
                "starts_at": next_saturday_afternoon(),
                "table_size": 4,
                "rounds": 3,
            },
        )
        self.stdout.write(f"tournament: {'created' if tournament_created else 'unchanged'}")

    def reset_passwords(self) -> None:
        """New random passwords for the demo accounts that exist (the organiser's own, one
        shared by the players), stored and printed."""
        organiser = User.objects.filter(username=ORGANISER_USERNAME).first()
        if organiser is not None:
            password = secrets.token_urlsafe(12)
            organiser.set_password(password)
            organiser.save(update_fields=["password"])
            remember_demo_logins(organiser=password)
            self.stdout.write(f"organiser: new password: {password}")
        names = [username for username, _name, _language in DEMO_PLAYERS]
        players = list(User.objects.filter(username__in=names).order_by("username"))
        if players:
            password = secrets.token_urlsafe(12)
            for player in players:
                player.set_password(password)
                player.save(update_fields=["password"])
            remember_demo_logins(players={p.username: password for p in players})
            self.stdout.write(
                f"players: new password for {', '.join(p.username for p in players)}: {password}"
            )
        if organiser is None and not players:
            self.stdout.write("no demo accounts yet: run seed_demo first (make run does)")
