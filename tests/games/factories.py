"""factory-boy factories for users and live tables."""

from __future__ import annotations

import factory
from django.utils import timezone
from factory.django import DjangoModelFactory

from games.models import Seat, Table
from rosbi_platform.accounts.models import Profile, User


class UserFactory(DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "correct horse battery")
    profile = factory.RelatedFactory(
        "tests.games.factories.ProfileFactory", factory_related_name="user"
    )

    @factory.post_generation
    def unverified(self, create, extracted, **kwargs):
        """``UserFactory(unverified=True)``: a new account whose e-mail is not confirmed yet."""
        if create and extracted:
            Profile.objects.filter(user=self).update(verified_email="", email_verified_at=None)

    @classmethod
    def _after_postgeneration(cls, instance, create, results=None):
        if create:
            instance.save(update_fields=["password"])


class SiteModeratorFactory(UserFactory):
    """A user in the "Site moderators" group (``accounts.permissions.is_site_moderator``);
    not staff: the permission, not ``is_staff``, makes a moderator."""

    @factory.post_generation
    def site_moderators_group(self, create, extracted, **kwargs):
        if create:
            from django.contrib.auth.models import Group, Permission

            from rosbi_platform.accounts.permissions import SITE_MODERATORS_GROUP

            # The migration creates the group; a transactional test's flush empties it again.
            group, _created = Group.objects.get_or_create(name=SITE_MODERATORS_GROUP)
            group.permissions.add(
                Permission.objects.get(content_type__app_label="accounts", codename="moderate_site")
            )
            self.groups.add(group)


class ProfileFactory(DjangoModelFactory):
    class Meta:
        model = Profile

    user = factory.SubFactory(UserFactory, profile=None)
    display_name = factory.LazyAttribute(lambda profile: profile.user.username.title())
    # Verified by default (as every account from before e-mail verification): the address
    # the link was sent to is the user's own.
    verified_email = factory.LazyAttribute(lambda profile: profile.user.email)
    email_verified_at = factory.LazyFunction(timezone.now)


class TableFactory(DjangoModelFactory):
    """An open table with ``size`` empty seats (the owner is not seated: tests seat people)."""

    class Meta:
        model = Table
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Table {n}")
    owner = factory.SubFactory(UserFactory)
    size = 4
    turn_seconds = 0
    bot_level = "heuristic"

    @factory.post_generation
    def seats(self, create, extracted, **kwargs):
        if create:
            Seat.objects.bulk_create([Seat(table=self, number=n) for n in range(self.size)])
