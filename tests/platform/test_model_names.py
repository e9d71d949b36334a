"""Every model and app of the project has a translatable name, so the admin reads in the
staff member's language (no "Seat results" or "Physical results" on a German admin page)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.utils.functional import Promise
from django.utils.translation import override

PROJECT_APPS = ("accounts", "friends", "games", "notifications", "ratings", "tournaments")


def project_models():
    return [model for label in PROJECT_APPS for model in apps.get_app_config(label).get_models()]


def test_every_app_has_a_translated_name():
    for label in PROJECT_APPS:
        config = apps.get_app_config(label)
        assert isinstance(config.verbose_name, Promise), label


@pytest.mark.parametrize("model", project_models(), ids=lambda m: m._meta.label)
def test_every_model_has_translated_names(model):
    meta = model._meta
    # A name Django made up from the class name is a plain str, never translated.
    assert isinstance(meta.verbose_name, Promise), f"{meta.label}: verbose_name"
    assert isinstance(meta.verbose_name_plural, Promise), f"{meta.label}: verbose_name_plural"
    with override("de"):
        german = (str(meta.verbose_name), str(meta.verbose_name_plural))
    with override("en"):
        english = (str(meta.verbose_name), str(meta.verbose_name_plural))
    # The German catalogue has them (a name only equal in both languages is listed here).
    same_in_both = {"Partie"}
    for de, en in zip(german, english, strict=True):
        assert de != en or en in same_in_both, f"{meta.label}: {en!r} has no German name"
