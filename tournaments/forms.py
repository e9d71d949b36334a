"""Forms of the tournament pages: the physical score sheet, a recurring series."""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass, field

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.common import SheetError
from tournaments.models import SERIES_TEMPLATE_FIELDS, Series, Tournament, Weekday
from tournaments.sheet_texts import CONTRACT_NAMES
from tournaments.sheets import CONTRACTS


@dataclass
class SheetRow:
    """One deal of the form: its number (1..6), contract name, fields, and the rules check's
    messages about it, shown next to the row (``error_id`` is what its inputs point to)."""

    number: int
    name: str
    fields: list[forms.BoundField]
    errors: list[str] = field(default_factory=list)

    @property
    def error_id(self) -> str:
        return f"sheet-deal-{self.number}-error"


class ScoreSheetForm(forms.Form):
    """Six deals x seats of whole numbers; the rules check happens in the service."""

    def __init__(self, *args, seats: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.deal_errors: dict[int, list[str]] = {}
        for deal, contract in enumerate(CONTRACTS):
            for seat in range(seats):
                self.fields[f"d{deal}s{seat}"] = forms.IntegerField(
                    label=_("%(contract)s, seat %(seat)s")
                    % {"contract": CONTRACT_NAMES[contract], "seat": seat + 1},
                    min_value=-8,
                    max_value=18,
                )

    def penalties(self) -> list[list[int]]:
        return [
            [self.cleaned_data[f"d{deal}s{seat}"] for seat in range(self.seats)]
            for deal in range(len(CONTRACTS))
        ]

    def add_sheet_error(self, error: SheetError) -> None:
        """The rules check's refusal: each deal's messages go to its row, the rest (a sheet
        with the wrong number of deals) above the form."""
        for deal, messages in error.by_deal.items():
            if deal is not None and 1 <= deal <= len(CONTRACTS):
                self.deal_errors.setdefault(deal, []).extend(messages)
            else:
                for message in messages:
                    self.add_error(None, message)

    def rows(self) -> list[SheetRow]:
        """Per deal the contract's name in the active language, the seats' fields and the
        problems found in that row."""
        return [
            SheetRow(
                number=deal + 1,
                name=CONTRACT_NAMES[contract],
                fields=[self[f"d{deal}s{seat}"] for seat in range(self.seats)],
                errors=self.deal_errors.get(deal + 1, []),
            )
            for deal, contract in enumerate(CONTRACTS)
        ]


def time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone) for zone in sorted(zoneinfo.available_timezones())]


SERIES_FORM_FIELDS = [
    "name",
    "weekdays",
    "start_time",
    "time_zone",
    "weeks_ahead",
    "active",
    *SERIES_TEMPLATE_FIELDS,
]


class SeriesForm(forms.ModelForm):
    """A recurring event: weekdays as checkboxes, a time picker, a zone list, and the event
    settings as the Tournament's own fields (the site's organiser page and the admin)."""

    weekdays = forms.TypedMultipleChoiceField(
        label=_("weekdays"),
        choices=Weekday.choices,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Choose at least one weekday.")},
    )
    start_time = forms.TimeField(
        label=_("local start time"),
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    # Declared fields take no initial value from the model's default: without one the list
    # would start at "Africa/Abidjan". The organiser page passes the organiser's own zone.
    time_zone = forms.ChoiceField(
        label=_("time zone"), choices=time_zone_choices, initial="Europe/Berlin"
    )

    class Meta:
        model = Series
        fields = SERIES_FORM_FIELDS
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean(self) -> dict:
        data = super().clean()
        if data.get("mode") == Tournament.Mode.HYBRID and data.get("format") in (
            Tournament.Format.KNOCKOUT,
            Tournament.Format.FIXED,
        ):
            raise forms.ValidationError(_("Hybrid events use Swiss or duplicate seating."))
        return data

    def service_fields(self) -> dict:
        """The cleaned values the series services take (everything but the club)."""
        return {name: self.cleaned_data[name] for name in SERIES_FORM_FIELDS}


class SkipDateForm(forms.Form):
    date = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}))
