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

from rosbi_platform.accounts.forms import ProfileForm, SignUpForm
from rosbi_platform.accounts.selectors import list_user_memberships
from rosbi_platform.accounts.services import ensure_profile, register_user, update_profile


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
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome to Rosbi! Your account is ready."))
        return redirect("accounts:profile")
    return render(request, "registration/signup.html", {"form": form})


class LogInView(auth_views.LoginView):
    """Django's login, plus switching the site to the player's saved language."""

    def form_valid(self, form):
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


@login_required
def profile_view(request: HttpRequest) -> HttpResponse:
    profile = ensure_profile(request.user)
    return render(
        request,
        "accounts/profile.html",
        {"profile": profile, "memberships": list_user_memberships(request.user)},
    )


@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    profile = ensure_profile(request.user)
    form = ProfileForm(request.POST or None, instance=profile)
    if request.method == "POST" and form.is_valid():
        profile = update_profile(
            request.user, **{name: form.cleaned_data[name] for name in ProfileForm.Meta.fields}
        )
        # Say it in the language the player just chose: that is what the next page shows.
        translation.activate(profile.language)
        messages.success(request, _("Your profile has been saved."))
        return remember_language(redirect("accounts:profile"), profile.language)
    return render(request, "accounts/profile_edit.html", {"form": form})
