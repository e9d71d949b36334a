"""Pages for e-mail verification and two-factor log-in: thin views over
``accounts.verification`` and ``accounts.two_factor``.

The log-in with a second factor: ``LogInView`` checks the password and, for an account with an
authenticator, does not log in but remembers the half-done log-in in the (server-side) session
(``begin_two_factor_login``); ``login_code`` logs in once a code is right and marks the session
verified (django-otp's ``otp_login``). After ``TWO_FACTOR_MAX_TRIES`` wrong codes the half-done
log-in is dropped and the password is asked again; each device also backs off wrong codes.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice

from rosbi_platform.accounts import two_factor, verification
from rosbi_platform.accounts.forms import TwoFactorCodeForm
from rosbi_platform.accounts.models import User
from rosbi_platform.accounts.services import ensure_profile

PENDING_LOGIN = "two_factor_pending_login"
RECHECK_TRIES = "two_factor_recheck_tries"
PENDING_SECONDS = 600


def begin_two_factor_login(request: HttpRequest, user: Any, next_url: str) -> HttpResponse:
    """Remember a log-in whose password was right, until its code is given."""
    request.session[PENDING_LOGIN] = {
        "user": user.pk,
        "backend": getattr(user, "backend", settings.AUTHENTICATION_BACKENDS[-1]),
        "next": next_url,
        "tries": 0,
        "started": time.time(),
    }
    return redirect("accounts:login_code")


def _pending_login(request: HttpRequest) -> dict[str, Any] | None:
    pending = request.session.get(PENDING_LOGIN)
    if not pending or time.time() - pending.get("started", 0) > PENDING_SECONDS:
        request.session.pop(PENDING_LOGIN, None)
        return None
    return pending


def _recovery_note(request: HttpRequest, user: Any, device: Any) -> None:
    if isinstance(device, StaticDevice):
        messages.warning(
            request,
            _("You used a recovery code. %(count)s are left: make new ones on your profile.")
            % {"count": two_factor.remaining_recovery_codes(user)},
        )


def login_code(request: HttpRequest) -> HttpResponse:
    """The second step of logging in: a code from the authenticator app or a recovery code.
    Also where a signed-in session that must be verified (a club owner's session from before
    two-factor log-in) proves the second factor."""
    pending = None
    if request.user.is_authenticated:
        if request.user.is_verified() or not two_factor.has_two_factor(request.user):
            return redirect("home")
        user = request.user
    else:
        pending = _pending_login(request)
        if pending is None:
            messages.error(request, _("Log in with your password first."))
            return redirect("accounts:login")
        user = User.objects.filter(pk=pending["user"], is_active=True).first()
        if user is None:
            request.session.pop(PENDING_LOGIN, None)
            return redirect("accounts:login")
    form = TwoFactorCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device = two_factor.check_code(user, form.cleaned_data["code"])
        if device is not None:
            next_url = "home"
            if pending is not None:
                request.session.pop(PENDING_LOGIN, None)
                login(request, user, backend=pending["backend"])
                next_url = pending["next"] or "home"
            otp_login(request, device)
            _recovery_note(request, user, device)
            profile = ensure_profile(user)
            translation.activate(profile.language)
            messages.success(request, _("You are signed in."))
            from rosbi_platform.accounts.views import remember_language

            return remember_language(redirect(next_url), profile.language)
        tries = 1 + (pending["tries"] if pending else request.session.get(RECHECK_TRIES, 0))
        if tries >= settings.TWO_FACTOR_MAX_TRIES:
            messages.error(request, _("Too many wrong codes. Log in again with your password."))
            if pending is not None:
                request.session.pop(PENDING_LOGIN, None)
            else:
                logout(request)
            return redirect("accounts:login")
        if pending is not None:
            pending["tries"] = tries
            request.session[PENDING_LOGIN] = pending
        else:
            request.session[RECHECK_TRIES] = tries
        form.add_error(
            "code",
            _("That code is not right (or came too fast after a wrong one). Try again."),
        )
        return render(request, "accounts/login_code.html", {"form": form}, status=400)
    return render(request, "accounts/login_code.html", {"form": form})


def _two_factor_context(request: HttpRequest) -> dict[str, Any]:
    user = request.user
    return {
        "two_factor_on": two_factor.has_two_factor(user),
        "two_factor_required": two_factor.must_use_two_factor(user),
        "recovery_codes_left": two_factor.remaining_recovery_codes(user),
        "code_form": TwoFactorCodeForm(),
    }


@login_required
def two_factor_settings(request: HttpRequest) -> HttpResponse:
    """Profile → two-factor log-in: on or off, recovery codes, turning it off."""
    return render(request, "accounts/two_factor.html", _two_factor_context(request))


@login_required
def two_factor_setup(request: HttpRequest) -> HttpResponse:
    """Set up an authenticator: the QR code and the secret, confirmed with a code; then the
    recovery codes, shown once."""
    if two_factor.has_two_factor(request.user):
        return redirect("accounts:two_factor")
    device = two_factor.pending_authenticator(request.user)
    form = TwoFactorCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            device, codes = two_factor.confirm_authenticator(
                request.user, form.cleaned_data["code"]
            )
        except two_factor.TwoFactorError as error:
            form.add_error("code", str(error))
        else:
            otp_login(request, device)
            messages.success(request, _("Two-factor log-in is on."))
            return render(request, "accounts/recovery_codes.html", {"codes": codes})
    return render(
        request,
        "accounts/two_factor_setup.html",
        {
            "form": form,
            "qr_code": two_factor.qr_code_svg(device),
            "secret": two_factor.secret_text(device),
            "required": two_factor.must_use_two_factor(request.user),
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def two_factor_recovery_codes(request: HttpRequest) -> HttpResponse:
    """New recovery codes, from a session that passed the second factor."""
    if not request.user.is_verified():
        messages.error(request, _("Enter a code from your authenticator app first."))
        return redirect("accounts:login_code")
    try:
        codes = two_factor.regenerate_recovery_codes(request.user)
    except two_factor.TwoFactorError as error:
        messages.error(request, str(error))
        return redirect("accounts:two_factor")
    return render(request, "accounts/recovery_codes.html", {"codes": codes})


@login_required
@require_POST
def two_factor_disable(request: HttpRequest) -> HttpResponse:
    form = TwoFactorCodeForm(request.POST)
    if form.is_valid():
        try:
            two_factor.disable_two_factor(request.user, form.cleaned_data["code"])
        except two_factor.TwoFactorError as error:
            form.add_error("code", str(error))
        else:
            messages.success(request, _("Two-factor log-in is off."))
            return redirect("accounts:two_factor")
    context = {**_two_factor_context(request), "code_form": form}
    return render(request, "accounts/two_factor.html", context, status=400)


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    """The link from the verification e-mail (works signed in or not)."""
    try:
        user = verification.verify_email(token)
    except verification.VerificationError as error:
        return render(request, "accounts/email_verified.html", {"error": str(error)}, status=400)
    return render(request, "accounts/email_verified.html", {"verified_user": user})


@login_required
@require_POST
def resend_verification(request: HttpRequest) -> HttpResponse:
    try:
        verification.request_verification_email(request.user)
    except verification.VerificationError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("We sent a new link to %(email)s.") % {"email": request.user.email}
        )
    return redirect("accounts:profile")
