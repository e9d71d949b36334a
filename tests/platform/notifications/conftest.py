"""Notification tests: a German page request leaves German active in the test thread (the
locale middleware activates it and nothing deactivates it); the next test starts in English."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def english_after_each_test():
    yield
    from django.utils import translation

    translation.deactivate()
