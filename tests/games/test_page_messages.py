"""The table pages' own refusals are worded in the visitor's language (German or English)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests.games.factories import TableFactory, UserFactory

pytestmark = [pytest.mark.django_db]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", "Dieser Tisch ist privat: Du brauchst den Einladungslink."),
        ("en", "This table is private: you need the invite link."),
    ],
)
def test_a_private_table_is_refused_in_the_visitors_language(language, expected):
    table = TableFactory(public=False)
    client = Client()
    client.force_login(UserFactory())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    response = client.get(f"/tables/{table.pk}/")

    assert response.status_code == 403
    assert response.content.decode() == expected
