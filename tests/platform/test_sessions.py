"""Sessions and the user behind them are read by prepared statements: a signed-in visitor
stays signed in, and an expired or unknown key is treated exactly as Django's store does."""

from __future__ import annotations

import datetime as dt

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from rosbi_platform.sessions import SessionStore
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db]


def test_the_engine_is_the_prepared_store():
    assert settings.SESSION_ENGINE == "rosbi_platform.sessions"


def test_a_saved_session_loads_in_one_statement(django_assert_num_queries):
    store = SessionStore()
    store["player"] = "Zoë"
    store.save()

    with django_assert_num_queries(1):
        loaded = SessionStore(session_key=store.session_key)
        assert loaded["player"] == "Zoë"
    assert loaded.session_key == store.session_key


def test_an_expired_or_unknown_key_loads_nothing_and_is_forgotten():
    store = SessionStore()
    store["player"] = "Zoë"
    store.save()
    Session.objects.filter(pk=store.session_key).update(
        expire_date=timezone.now() - dt.timedelta(seconds=1)
    )
    expired = SessionStore(session_key=store.session_key)
    assert expired.load() == {} and expired.session_key is None

    unknown = SessionStore(session_key="x" * 32)
    assert unknown.load() == {} and unknown.session_key is None


def test_a_signed_in_player_stays_signed_in_across_requests():
    user = UserFactory()
    client = Client()
    client.force_login(user)
    assert client.get("/notifications/").status_code == 200
    assert client.session.session_key
    assert int(client.session["_auth_user_id"]) == user.pk


def test_the_backend_loads_the_user_with_the_profile_in_one_statement(django_assert_num_queries):
    from rosbi_platform.accounts.backends import ModelBackend

    user = UserFactory()
    user.profile.display_name = "Zoë Ä."
    user.profile.save()
    with django_assert_num_queries(1):
        loaded = ModelBackend().get_user(user.pk)
        assert loaded.pk == user.pk and loaded.profile.display_name == "Zoë Ä."
        assert loaded.date_joined == user.date_joined and loaded.password == user.password


def test_the_backend_gives_no_user_for_an_inactive_account_or_a_bad_id():
    from rosbi_platform.accounts.backends import ModelBackend

    user = UserFactory(is_active=False)
    assert ModelBackend().get_user(user.pk) is None
    assert ModelBackend().get_user("not-a-number") is None
    assert ModelBackend().get_user(10**9) is None
