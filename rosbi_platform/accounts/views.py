"""Account pages: thin views that delegate writes to services."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rosbi_platform.accounts import tokens, two_factor, verification
from rosbi_platform.accounts.forms import BotAccountForm, ProfileForm, SignUpForm, TokenForm
from rosbi_platform.accounts.security_views import begin_two_factor_login
from rosbi_platform.accounts.selectors import list_tokens, list_user_memberships
from rosbi_platform.accounts.services import (
    ensure_profile,
    mark_as_bot,
    register_user,
    update_profile,
)


def remember_language(response: HttpResponse, language: str) -> HttpResponse:
    """Store the profile's language in the cookie LocaleMiddleware reads."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    translation.activate(language)
    return response


def sign_up(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        language = translation.get_language() or settings.LANGUAGE_CODE
        user = register_user(
            username=form.cleaned_data["username"],
            email=form.cleaned_data["email"],
            password=form.cleaned_data["password1"],
            display_name=form.cleaned_data["display_name"],
            language=language[:2] if language[:2] in {"en", "de"} else "en",
        )
        login(request, user, backend="rosbi_platform.accounts.backends.ModelBackend")
        messages.success(request, _("Welcome to Rosbi! Your account is ready."))
        messages.info(
            request,
            _("We sent a link to %(email)s: open it to enter events and play rated games.")
            % {"email": user.email},
        )
        return redirect("accounts:profile")
    return render(request, "registration/signup.html", {"form": form})


class LogInView(auth_views.LoginView):
    """Django's login, plus switching the site to the player's saved language. An account with
    two-factor log-in is not logged in yet: the code page follows (``security_views``)."""

    def form_valid(self, form):
        if two_factor.has_two_factor(form.get_user()):
            return begin_two_factor_login(self.request, form.get_user(), self.get_success_url())
        response = super().form_valid(form)
        profile = ensure_profile(form.get_user())
        translation.activate(profile.language)
        messages.success(self.request, _("You are signed in."))
        return remember_language(response, profile.language)


class PasswordChangeView(auth_views.PasswordChangeView):
    success_url = reverse_lazy("accounts:password_change_done")


class PasswordResetView(auth_views.PasswordResetView):
    success_url = reverse_lazy("accounts:password_reset_done")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    success_url = reverse_lazy("accounts:password_reset_complete")


def _profile_page(
    request: HttpRequest,
    *,
    token_form: TokenForm | None = None,
    new_secret: str | None = None,
    status: int = 200,
) -> HttpResponse:
    profile = ensure_profile(request.user)
    return render(
        request,
        "accounts/profile.html",
        {
            "profile": profile,
            "memberships": list_user_memberships(request.user),
            "tokens": list_tokens(request.user),
            "token_form": token_form or TokenForm(),
            "new_secret": new_secret,
            "bot_form": BotAccountForm(),
            "email_verified": verification.is_email_verified(request.user),
            "two_factor_on": two_factor.has_two_factor(request.user),
        },
        status=status,
    )


@login_required
def profile_view(request: HttpRequest) -> HttpResponse:
    return _profile_page(request)


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    """Create a token and show its secret on this one page (never stored, never again)."""
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, token_form=form, status=400)
    if two_factor.has_two_factor(request.user) and not request.user.is_verified():
        # A token is a second secret: only a session that passed the second factor makes one.
        form.add_error(None, _("Enter a code from your authenticator app first."))
        return _profile_page(request, token_form=form, status=403)
    try:
        new = tokens.create_token(
            request.user, form.cleaned_data["name"], form.cleaned_data["scopes"]
        )
    except tokens.TokenError as error:
        form.add_error(None, str(error))
        return _profile_page(request, token_form=form, status=400)
    return _profile_page(request, new_secret=new.secret)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        tokens.revoke_token(request.user, token_id)
        messages.success(request, _("The token is revoked: programs using it are refused."))
    except tokens.TokenError as error:
        messages.error(request, str(error))
    return redirect("accounts:profile")


@login_required
@require_POST
def bot_account(request: HttpRequest) -> HttpResponse:
    """Mark the account as a bot, once the owner has ticked the confirmation."""
    form = BotAccountForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Tick the confirmation to make this a bot account."))
        return redirect("accounts:profile")
    mark_as_bot(request.user)
    messages.success(request, _("This is now a bot account."))
    return redirect("accounts:profile")


@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    profile = ensure_profile(request.user)
    form = ProfileForm(
        request.POST or None, instance=profile, initial={"email": request.user.email}
    )
    if request.method == "POST" and form.is_valid():
        profile = update_profile(
            request.user, **{name: form.cleaned_data[name] for name in ProfileForm.Meta.fields}
        )
        new_email = form.cleaned_data["email"]
        if new_email and verification.change_email(request.user, new_email):
            messages.info(
                request,
                _("Confirm your new e-mail address with the link we sent to %(email)s.")
                % {"email": request.user.email},
            )
        # Say it in the language the player just chose: that is what the next page shows.
        translation.activate(profile.language)
        messages.success(request, _("Your profile has been saved."))
        return remember_language(redirect("accounts:profile"), profile.language)
    return render(request, "accounts/profile_edit.html", {"form": form})
