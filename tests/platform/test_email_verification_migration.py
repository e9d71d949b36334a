"""The data migration that counts every existing account's address as verified: people who
played before e-mail verification keep entering events and playing rated."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from rosbi_platform.accounts import verification
from rosbi_platform.accounts.models import Profile
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db]
migration = importlib.import_module("rosbi_platform.accounts.migrations.0006_email_verification")


def test_existing_accounts_with_an_address_are_verified():
    before, without_address = UserFactory(unverified=True), UserFactory(unverified=True, email="")
    assert not verification.is_email_verified(before)

    migration.verify_existing_accounts(apps, None)
    assert verification.is_email_verified(before)
    assert Profile.objects.get(user=before).email_verified_at is not None
    assert not verification.is_email_verified(without_address)
