"""Create demo data: an organiser, six players, a club and an upcoming tournament.

Idempotent: everything is looked up by a natural key first, so a second run changes nothing.
Passwords are random and printed only when the account is created.
"""

import secrets
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from rosbi_platform.accounts.models import Club, ClubMembership, Profile, User
from rosbi_platform.accounts.services import add_club_member, ensure_profile
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


class Command(BaseCommand):
    help = "Create (once) the demo organiser, players, club and tournament."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        organiser = User.objects.filter(username=ORGANISER_USERNAME).first()
        if organiser is None:
            password = secrets.token_urlsafe(12)
            organiser = User.objects.create_superuser(
                ORGANISER_USERNAME, "organiser@example.com", password
            )
            Profile.objects.create(user=organiser, display_name="Organiser")
            self.stdout.write(f"organiser: created, password: {password}")
        else:
            ensure_profile(organiser)
            self.stdout.write("organiser: unchanged")

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
                created_players.append(username)
            players.append(player)
        if created_players:
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
        if organiser.pk not in existing:
            add_club_member(club, organiser, ClubMembership.Role.ORGANISER)
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
