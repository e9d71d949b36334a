"""The placement-points field: what the form shows reads back as the same points, and what
it accepts the model's validator accepts too (property tests), and the presets fill the
form with their settings."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from tournaments.models import Tournament, validate_placement_points
from tournaments.scoring import DEFAULT_POINTS
from tournaments.workspace_forms import PRESETS, EventForm, _parse_points, points_text

sizes = st.integers(min_value=3, max_value=6)
halves = st.integers(min_value=0, max_value=40).map(lambda n: n / 2)


@given(sizes, st.data())
def test_shown_points_read_back_unchanged(size, data):
    points = sorted(data.draw(st.lists(halves, min_size=size, max_size=size)), reverse=True)
    assert _parse_points(points_text(points), size) == points
    validate_placement_points({str(size): points})


@given(sizes, st.lists(halves, min_size=1, max_size=8))
def test_accepted_points_are_valid_for_the_model(size, points):
    try:
        parsed = _parse_points(", ".join(str(p) for p in points), size)
    except ValidationError:
        with pytest.raises(ValidationError):
            validate_placement_points({str(size): points})
        return
    validate_placement_points({str(size): parsed})
    assert len(parsed) == size


def test_the_default_points_are_shown_for_every_size():
    form = EventForm(clubs=None)
    for size in range(3, 7):
        assert _parse_points(form[f"points_{size}"].value(), size) == list(DEFAULT_POINTS[size])


@pytest.mark.parametrize("code", list(PRESETS))
def test_a_preset_fills_the_form(code):
    form = EventForm(clubs=None, preset=code)
    for field, value in PRESETS[code].settings.items():
        assert form[field].value() == value
    assert PRESETS[code].settings["format"] in Tournament.Format.values
