"""The ratings admin: ratings, rating changes and the ledger are read-only there."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import RequestFactory

from ratings.models import PlayerRating, RatingChange, RatingLedger
from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", [PlayerRating, RatingChange, RatingLedger])
def test_rating_rows_cannot_be_added_changed_or_deleted_in_the_admin(model):
    request = RequestFactory().get("/admin/")
    request.user = UserFactory(is_staff=True, is_superuser=True)
    model_admin = admin.site._registry[model]
    assert model_admin.has_view_permission(request)
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert "delete_selected" not in model_admin.get_actions(request)


def test_the_rating_pages_of_the_admin_still_open_for_staff(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    for name in ("playerrating", "ratingchange", "ratingledger"):
        response = client.get(f"/admin/ratings/{name}/")
        assert response.status_code == 200, name
