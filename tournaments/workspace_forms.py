"""Forms of the organiser's workspace: an event from a preset (every setting a field; the
placement points and the tie-break order as validated fields with a preview), adding a
player by name, a substitution, a seat swap, a new start, an announcement."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from dataclasses import dataclass
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments.forms import time_zone_choices
from tournaments.models import Tournament, validate_placement_points, validate_tiebreaks
from tournaments.scoring import DEFAULT_POINTS, MAX_TABLE, MIN_TABLE
from tournaments.standings import (
    DEFAULT_TIEBREAKS,
    HEAD_TO_HEAD,
    OPPONENTS_POINTS,
    PENALTY,
    POINTS,
    TABLE_WINS,
)


@dataclass(frozen=True)
class Preset:
    """A starting point for a new event: a name for people and the settings it fills in."""

    code: str
    label: Any
    description: Any
    settings: dict[str, Any]


PRESETS: dict[str, Preset] = {
    preset.code: preset
    for preset in (
        Preset(
            "club_evening",
            _("Club evening: Swiss, 4 rounds"),
            _(
                "Tables of four, at the club or online; each round seats players with similar scores."
            ),
            {
                "format": Tournament.Format.SWISS,
                "mode": Tournament.Mode.HYBRID,
                "rounds": 4,
                "table_size": 4,
                "first_round": Tournament.FirstRound.LOT,
                "round_interval_minutes": 10,
            },
        ),
        Preset(
            "knockout",
            _("Knockout"),
            _("Online tables of four; the best two of each table go on until the final table."),
            {
                "format": Tournament.Format.KNOCKOUT,
                "mode": Tournament.Mode.ONLINE,
                "rounds": 3,
                "table_size": 4,
                "knockout_advance": 2,
                "first_round": Tournament.FirstRound.RATING,
            },
        ),
        Preset(
            "duplicate",
            _("Duplicate"),
            _("Every table plays the same deals; you are compared with those who held your cards."),
            {
                "format": Tournament.Format.DUPLICATE,
                "mode": Tournament.Mode.ONLINE,
                "rounds": 3,
                "table_size": 4,
            },
        ),
        Preset(
            "league_night",
            _("League night"),
            _(
                "Club members at physical tables, a fixed schedule (everyone meets everyone), rated."
            ),
            {
                "format": Tournament.Format.FIXED,
                "mode": Tournament.Mode.PHYSICAL,
                "rounds": 3,
                "table_size": 4,
                "members_only": True,
                "rated": True,
            },
        ),
    )
}

TIEBREAK_LABELS = {
    POINTS: _("Placement points"),
    PENALTY: _("Penalty total (lower is better)"),
    OPPONENTS_POINTS: _("Opponents' points"),
    TABLE_WINS: _("Tables won"),
    HEAD_TO_HEAD: _("Head-to-head"),
}

# The event's own fields the form shows, in the order of the page (the rest are extra fields).
EVENT_FIELDS = [
    "name",
    "description",
    "time_zone",
    "format",
    "mode",
    "rounds",
    "table_size",
    "allow_other_sizes",
    "min_players",
    "capacity",
    "members_only",
    "allow_bots",
    "min_rating",
    "max_rating",
    "rated",
    "doubling",
    "layout",
    "scheduling",
    "round_interval_minutes",
    "first_round",
    "knockout_advance",
    "avoid_same_club",
    "late_entry_until_round",
    "turn_seconds",
    "no_show_policy",
    "no_show_grace_minutes",
]

SECTIONS = [
    (_("The event"), ["club", "name", "description", "starts_at_local", "time_zone"]),
    (
        _("Format"),
        ["format", "mode", "rounds", "table_size", "allow_other_sizes", "min_players"],
    ),
    (
        _("Entry"),
        [
            "open_registration",
            "capacity",
            "members_only",
            "allow_bots",
            "min_rating",
            "max_rating",
            "late_entry_until_round",
        ],
    ),
    (
        _("Play"),
        [
            "rated",
            "doubling",
            "layout",
            "scheduling",
            "round_interval_minutes",
            "first_round",
            "knockout_advance",
            "avoid_same_club",
            "turn_seconds",
            "no_show_policy",
            "no_show_grace_minutes",
        ],
    ),
]


def _number_text(value: float) -> str:
    return f"{value:g}"


def points_text(points: Any) -> str:
    return ", ".join(_number_text(float(p)) for p in points)


class EventForm(forms.ModelForm):
    """A new event (``clubs`` given) or the settings of one that has not started."""

    club = forms.ModelChoiceField(label=_("club"), queryset=None, empty_label=None)
    starts_at_local = forms.DateTimeField(
        label=_("starts at (in the event's time zone)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    time_zone = forms.ChoiceField(label=_("time zone"), choices=time_zone_choices)
    open_registration = forms.BooleanField(
        label=_("open registration now"), required=False, initial=True
    )

    class Meta:
        model = Tournament
        fields = EVENT_FIELDS
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args: Any, clubs: Any = None, preset: str | None = None, **kwargs: Any):
        instance = kwargs.get("instance")
        initial = dict(kwargs.pop("initial", None) or {})
        if instance is None and preset in PRESETS:
            initial = {**PRESETS[preset].settings, **initial}
        points = (instance.placement_points if instance else None) or {}
        for size in range(MIN_TABLE, MAX_TABLE + 1):
            scale = points.get(str(size)) or DEFAULT_POINTS[size]
            initial.setdefault(f"points_{size}", points_text(scale))
        order = list((instance.tiebreaks if instance else None) or DEFAULT_TIEBREAKS)
        for place in range(len(DEFAULT_TIEBREAKS)):
            initial.setdefault(f"tiebreak_{place + 1}", order[place] if place < len(order) else "")
        if instance is not None:
            local = instance.starts_at.astimezone(zoneinfo.ZoneInfo(instance.time_zone))
            initial.setdefault("starts_at_local", local.replace(tzinfo=None))
        super().__init__(*args, initial=initial, **kwargs)
        if clubs is None:
            del self.fields["club"]
            del self.fields["open_registration"]
        else:
            self.fields["club"].queryset = clubs
        for size in range(MIN_TABLE, MAX_TABLE + 1):
            self.fields[f"points_{size}"] = forms.CharField(
                label=_("Points per place at a table of %(size)s") % {"size": size},
                help_text=_("%(size)s numbers, best place first, e.g. %(example)s")
                % {"size": size, "example": points_text(DEFAULT_POINTS[size])},
                max_length=60,
            )
        choices = [(code, TIEBREAK_LABELS[code]) for code in DEFAULT_TIEBREAKS]
        for place in range(1, len(DEFAULT_TIEBREAKS) + 1):
            self.fields[f"tiebreak_{place}"] = forms.ChoiceField(
                label=_("Ranking criterion %(place)s") % {"place": place},
                choices=choices if place == 1 else [("", _("(none)")), *choices],
                required=place == 1,
            )

    # -- sections and previews for the template

    def sections(self) -> list[tuple[Any, list[forms.BoundField], bool]]:
        """(title, fields, shown open): the first two always open, the others folded on a
        phone unless one of their fields has a problem."""
        out = []
        for number, (title, names) in enumerate(SECTIONS):
            fields = [self[name] for name in names if name in self.fields]
            out.append((title, fields, number < 2 or any(f.errors for f in fields)))
        return out

    def scoring_open(self) -> bool:
        """The scoring section unfolds after "Preview" and when one of its fields is wrong."""
        if not self.is_bound:
            return False
        if "preview" in self.data:
            return True
        return any(f.errors for f in (*self.points_fields(), *self.tiebreak_fields()))

    def points_fields(self) -> list[forms.BoundField]:
        return [self[f"points_{size}"] for size in range(MIN_TABLE, MAX_TABLE + 1)]

    def tiebreak_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{p}"] for p in range(1, len(DEFAULT_TIEBREAKS) + 1)]

    def points_preview(self) -> list[tuple[int, list[str]]]:
        """Per table size the points of each place, as they will count (the entered numbers
        when they are valid, otherwise the current ones)."""
        preview = []
        for size in range(MIN_TABLE, MAX_TABLE + 1):
            scale = None
            if self.is_bound and hasattr(self, "cleaned_data"):
                scale = self.cleaned_data.get(f"points_{size}")
            if scale is None:
                try:
                    scale = _parse_points(str(self[f"points_{size}"].value() or ""), size)
                except ValidationError:
                    scale = list(DEFAULT_POINTS[size])
            preview.append((size, [_number_text(p) for p in scale]))
        return preview

    def tiebreak_preview(self) -> list[Any]:
        order = []
        for field in self.tiebreak_fields():
            code = field.value()
            if code in TIEBREAK_LABELS and code not in order:
                order.append(code)
        return [TIEBREAK_LABELS[code] for code in order]

    # -- validation

    def clean(self) -> dict:
        data = super().clean()
        for size in range(MIN_TABLE, MAX_TABLE + 1):
            name = f"points_{size}"
            if name in data:
                try:
                    data[name] = _parse_points(data[name], size)
                except ValidationError as error:
                    self.add_error(name, error)
                    data.pop(name, None)
        order = [data.get(f"tiebreak_{p}") for p in range(1, len(DEFAULT_TIEBREAKS) + 1)]
        chosen = [code for code in order if code]
        try:
            validate_tiebreaks(chosen)
        except ValidationError as error:
            self.add_error("tiebreak_1", error)
        else:
            data["tiebreaks"] = chosen
        placement = {}
        for size in range(MIN_TABLE, MAX_TABLE + 1):
            scale = data.get(f"points_{size}")
            if scale is not None and tuple(scale) != tuple(DEFAULT_POINTS[size]):
                placement[str(size)] = scale
        try:
            validate_placement_points(placement)
        except ValidationError as error:
            self.add_error(None, error)
        data["placement_points"] = placement
        zone = data.get("time_zone")
        local = data.get("starts_at_local")
        if zone and local is not None:
            data["starts_at"] = local.replace(tzinfo=None).replace(tzinfo=zoneinfo.ZoneInfo(zone))
        return data

    def service_fields(self) -> dict[str, Any]:
        """What ``events.create_tournament`` / ``update_tournament`` take (no club, no slug)."""
        fields = {name: self.cleaned_data[name] for name in EVENT_FIELDS}
        fields["starts_at"] = self.cleaned_data["starts_at"]
        fields["placement_points"] = self.cleaned_data["placement_points"]
        fields["tiebreaks"] = self.cleaned_data["tiebreaks"]
        return fields


def _parse_points(text: str, size: int) -> list[float]:
    """ "3, 2, 1, 0" (commas, semicolons or spaces between; a point for decimals, 2.5) into
    the points of ``size`` places."""
    parts = text.replace(",", " ").replace(";", " ").split()
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise ValidationError(
            _(
                "Write %(size)s numbers separated by commas, with a point for decimals, "
                "e.g. %(example)s."
            )
            % {"size": size, "example": points_text(DEFAULT_POINTS[size])}
        ) from None
    if len(numbers) != size:
        raise ValidationError(
            _("A table of %(size)s needs %(size)s numbers, one per place (you gave %(count)s).")
            % {"size": size, "count": len(numbers)}
        )
    if any(n < 0 for n in numbers):
        raise ValidationError(_("Placement points cannot be negative."))
    if any(b > a for a, b in zip(numbers, numbers[1:], strict=False)):
        raise ValidationError(_("A worse place cannot earn more points than a better one."))
    return numbers


class PlayerNameForm(forms.Form):
    name = forms.CharField(
        label=_("Player (user name or display name)"),
        max_length=150,
        error_messages={"required": _("Enter the player's name.")},
    )
    check_in_now = forms.BooleanField(
        label=_("checked in at the door"), required=False, initial=True
    )
    plays_online = forms.TypedChoiceField(
        label=_("plays"),
        choices=[("1", _("online")), ("0", _("at a physical table"))],
        coerce=lambda v: v == "1",
        initial="1",
        required=False,
    )


class SubstituteForm(forms.Form):
    leaving = forms.TypedChoiceField(label=_("Replace"), coerce=int, choices=[])
    name = forms.CharField(label=_("with (user name or display name)"), max_length=150)

    def __init__(self, *args: Any, seats: list[tuple[int, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["leaving"].choices = list(seats)


class SeatChoiceField(forms.ChoiceField):
    """A seat as ``entry@table:seat``: offered from the current seating, but a place from an
    earlier page is still accepted (the service then sees the swap was already made)."""

    def valid_value(self, value: str) -> bool:
        entry, _at, place = str(value).partition("@")
        table, _colon, seat = place.partition(":")
        return all(part.isdigit() and len(part) < 10 for part in (entry, table, seat))


class SwapForm(forms.Form):
    """Two seated players; each choice carries where the player sat when the page was drawn
    (``entry@table:seat``), so a form sent twice is recognised and swaps only once."""

    first = SeatChoiceField(label=_("Swap"), choices=[])
    second = SeatChoiceField(label=_("with"), choices=[])

    def __init__(self, *args: Any, seats: list[tuple[str, str]] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = list(seats)
        self.fields["second"].choices = list(seats)

    def clean(self) -> dict:
        data = super().clean()
        for name in ("first", "second"):
            if name in data:
                entry, place = data[name].split("@")
                table, seat = place.split(":")
                data[name] = int(entry)
                data[f"{name}_at"] = (int(table), int(seat))
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise ValidationError(_("Choose two different players."))
        return data


class NewStartForm(forms.Form):
    starts_at = forms.DateTimeField(
        label=_("New start (in the event's time zone)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        error_messages={"required": _("Please give the new start as a date and a time.")},
    )

    def moment(self, zone: str) -> dt.datetime:
        naive = self.cleaned_data["starts_at"].replace(tzinfo=None)
        return naive.replace(tzinfo=zoneinfo.ZoneInfo(zone))


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label=_("Announcement to the entrants"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={"required": _("Write the announcement first.")},
    )
    token = forms.CharField(widget=forms.HiddenInput, max_length=64)
