"""Account pages: thin views that delegate writes to services."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rosbi_platform.accounts import tokens, two_factor, verification
from rosbi_platform.accounts.deletion import AccountDeletionRefused, delete_account
from rosbi_platform.accounts.forms import (
    BotAccountForm,
    DeleteAccountForm,
    ProfileForm,
    SignUpForm,
    TokenForm,
)
from rosbi_platform.accounts.personal_data import count_export, export_personal_data
from rosbi_platform.accounts.security_views import begin_two_factor_login
from rosbi_platform.accounts.selectors import list_tokens, list_user_memberships
from rosbi_platform.accounts.services import (
    ensure_profile,
    mark_as_bot,
    register_user,
    update_profile,
)
from rosbi_platform.throttling import (
    account_rate_limited,
    address_of,
    too_many_requests_page,
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
    if request.method == "POST" and account_rate_limited(request, "signup", address_of(request)):
        return too_many_requests_page(request)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        language = translation.get_language() or settings.LANGUAGE_CODE
        try:
            user = register_user(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                display_name=form.cleaned_data["display_name"],
                language=language[:2] if language[:2] in {"en", "de"} else "en",
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            login(request, user, backend="rosbi_platform.accounts.backends.ModelBackend")
            messages.success(request, _("Welcome to Rosbi! Your account is ready."))
            messages.info(
                request,
                _("We sent a link to %(email)s: open it to enter events and play rated games.")
                % {"email": user.email},
            )
            return redirect("accounts:profile")
    return render(request, "registration/signup.html", {"form": form})


def add_errors(form, error: ValidationError) -> None:
    """A service's refusal shown on the form: by field where the form has that field."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for field, messages_of_field in error.message_dict.items():
        form.add_error(field if field in form.fields else None, messages_of_field)


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
    """Django's reset, limited per address (429) and per target e-mail: past that limit the
    page answers as if the mail went out, so it never tells whether an address is known."""

    success_url = reverse_lazy("accounts:password_reset_done")

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if account_rate_limited(request, "password_reset_address", address_of(request)):
            return too_many_requests_page(request)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        email = form.cleaned_data["email"].strip().casefold()
        if account_rate_limited(self.request, "password_reset_email", email):
            return redirect(self.get_success_url())
        return super().form_valid(form)


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
    if account_rate_limited(request, "token_create", str(request.user.pk)):
        form.add_error(None, _("You have made many tokens in a short time: try again later."))
        return _profile_page(request, token_form=form, status=429)
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
        try:
            profile = update_profile(
                request.user,
                **{name: form.cleaned_data[name] for name in ProfileForm.Meta.fields},
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
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


def export_filename(user) -> str:
    return f"rosbi-data-{user.get_username()}-{timezone.now():%Y-%m-%d}.json"


@login_required
def data_export(request: HttpRequest) -> HttpResponse:
    """ "Download my data": everything about the person as one JSON file (throttled: it reads
    every app)."""
    wait = count_export(request.user)
    if wait:
        messages.error(
            request,
            _("You downloaded your data a short while ago. Try again in %(minutes)s minutes.")
            % {"minutes": max(1, (wait + 59) // 60)},
        )
        response = redirect("accounts:profile")
        response["Retry-After"] = str(wait)
        return response
    response = JsonResponse(
        export_personal_data(request.user),
        encoder=DjangoJSONEncoder,
        json_dumps_params={"indent": 2, "ensure_ascii": False},
    )
    response["Content-Disposition"] = f'attachment; filename="{export_filename(request.user)}"'
    response["Cache-Control"] = "no-store"
    return response


@login_required
def account_delete(request: HttpRequest) -> HttpResponse:
    """ "Delete my account": what happens, then the password and a confirmation."""
    form = DeleteAccountForm(request.user, request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                delete_account(request.user)
            except AccountDeletionRefused as refusal:
                form.add_error(None, str(refusal))
            else:
                logout(request)
                messages.success(
                    request,
                    _(
                        "Your account is deleted. Your results stay in the others' history "
                        "under “Deleted player”. Goodbye!"
                    ),
                )
                return redirect("home")
        status = 400
    return render(request, "accounts/delete_account.html", {"form": form}, status=status)
