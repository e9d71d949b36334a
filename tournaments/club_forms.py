"""Forms of the club pages: asking for a club, invite links, roles, seasons, history filters.
Proper fields only (the points per place are a comma-separated list of whole numbers)."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from rosbi_platform.accounts.models import ClubMembership
from tournaments.models import ClubSeason


class ClubRequestForm(forms.Form):
    name = forms.CharField(label=_("Name of the club"), max_length=100)
    description = forms.CharField(
        label=_("About the club"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )


class MembershipRequestForm(forms.Form):
    message = forms.CharField(
        label=_("Message to the club (optional)"), max_length=300, required=False
    )


class InviteForm(forms.Form):
    VALIDITY = [
        ("", _("Until withdrawn")),
        ("1", _("1 day")),
        ("7", _("7 days")),
        ("30", _("30 days")),
    ]
    valid_for = forms.ChoiceField(label=_("The link works"), choices=VALIDITY, required=False)

    def expires_at(self) -> dt.datetime | None:
        days = self.cleaned_data.get("valid_for")
        return timezone.now() + dt.timedelta(days=int(days)) if days else None


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=ClubMembership.Role.choices)


class SeasonForm(forms.ModelForm):
    class Meta:
        model = ClubSeason
        fields = ["name", "starts_on", "ends_on", "best_of", "place_points", "ladder", "automatic"]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def service_fields(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class AddEventForm(forms.Form):
    tournament = forms.TypedChoiceField(label=_("Event"), coerce=int, choices=())

    def __init__(self, *args, events=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = [
            (t.pk, f"{t.name} ({timezone.localtime(t.starts_at):%Y-%m-%d})") for t in events
        ]


class HistoryFilterForm(forms.Form):
    club = forms.TypedChoiceField(label=_("Club"), coerce=int, required=False, empty_value=None)
    season = forms.TypedChoiceField(label=_("Season"), coerce=int, required=False, empty_value=None)

    def __init__(self, *args, clubs=(), seasons=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].choices = [("", _("All clubs"))] + [(c.pk, c.name) for c in clubs]
        self.fields["season"].choices = [("", _("All seasons"))] + [
            (s.pk, f"{s.name} ({s.club.name})") for s in seasons
        ]
