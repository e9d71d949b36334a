"""Forms for sign-up and the profile page."""

import zoneinfo

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from rosbi_platform.accounts.models import AccessToken, Profile, User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("E-mail"), help_text=_("Used only to reset your password."))
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("What other players see at the table. Defaults to your user name."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ["username", "email"]


def time_zone_choices() -> list[tuple[str, str]]:
    return [(name, name) for name in sorted(zoneinfo.available_timezones())]


class ProfileForm(forms.ModelForm):
    # The user's, not the profile's: a new address is unverified until its link is opened.
    # Left empty, the address stays as it is.
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("A new address must be confirmed again with the link we send to it."),
    )
    time_zone = forms.TypedChoiceField(label=_("Time zone"), choices=time_zone_choices)

    class Meta:
        model = Profile
        fields = ["display_name", "card_look", "language", "time_zone"]
        widgets = {"card_look": forms.RadioSelect}


class TokenForm(forms.Form):
    """A new personal access token: a name to recognise it by and what it may do."""

    name = forms.CharField(
        label=_("Token name"),
        max_length=60,
        help_text=_('What uses it, e.g. "my bot" or "league spreadsheet".'),
    )
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=AccessToken.Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[AccessToken.Scope.READ],
    )


class BotAccountForm(forms.Form):
    confirm = forms.BooleanField(
        label=_("I understand: this account becomes a bot account for good."),
        help_text=_(
            "A bot account is played by a program. It cannot be undone; ranked play and "
            "tournaments that do not allow bots refuse it."
        ),
    )


class DeleteAccountForm(forms.Form):
    """Deleting the account: the password again (a borrowed, signed-in browser is not enough)
    and an explicit confirmation."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label=_("I understand: my account is deleted for good and cannot be restored."),
    )

    def __init__(self, user: User, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password


class TwoFactorCodeForm(forms.Form):
    """A six-digit code from the authenticator app, or one of the recovery codes."""

    code = forms.CharField(
        label=_("Your code"),
        max_length=32,
        help_text=_("The six digits your authenticator app shows, or a recovery code."),
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "text", "autofocus": True}
        ),
    )
