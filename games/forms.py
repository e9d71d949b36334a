"""The lobby's create-table form."""

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.bots import level_rating
from games.models import BOT_LEVEL_CHOICES

TURN_TIME_CHOICES = [
    (15, _("15 seconds")),
    (30, _("30 seconds")),
    (60, _("1 minute")),
    (120, _("2 minutes")),
    (3600, _("1 hour (turn-based, e-mail on your turn)")),
    (86400, _("1 day (turn-based, e-mail on your turn)")),
    (0, _("No limit")),
]


def rated_bot_level_choices() -> list[tuple[str, object]]:
    """The bot levels named with their measured rating ("Strong · 1650")."""
    choices: list[tuple[str, object]] = []
    for level, label in BOT_LEVEL_CHOICES:
        rating = level_rating(level)
        choices.append((level, label if rating is None else format_lazy("{} · {}", label, rating)))
    return choices


class CreateTableForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80, required=False)
    size = forms.TypedChoiceField(
        label=_("Players"), choices=[(n, str(n)) for n in range(3, 7)], coerce=int, initial=4
    )
    doubling = forms.BooleanField(label=_("Doubling"), required=False, initial=True)
    layout = forms.ChoiceField(
        label=_("Rosbiratschka layout"),
        choices=[
            ("extend_first", _("Extend a row before starting one")),
            ("free", _("Free choice between extending and a Jack")),
        ],
        initial="extend_first",
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Time per move"), choices=TURN_TIME_CHOICES, coerce=int, initial=30
    )
    rated = forms.BooleanField(label=_("Rated"), required=False)
    public = forms.BooleanField(label=_("Public"), required=False, initial=True)
    fill_with_bots = forms.BooleanField(
        label=_("Bots for empty seats"), required=False, initial=True
    )
    bot_level = forms.ChoiceField(
        label=_("Bot level"), choices=rated_bot_level_choices, initial="heuristic"
    )
    allow_bots = forms.BooleanField(
        label=_("Allow bot accounts"),
        required=False,
        help_text=_("Accounts that programs play (over the API) may take a seat."),
    )
