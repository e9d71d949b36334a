"""Show dates in each signed-in player's own time zone; hold sessions that must pass a second
factor at its set-up."""

import time
import zoneinfo

from django.utils import timezone

from rosbi_platform.accounts.models import Profile


class UserTimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.profile.time_zone))
            except (Profile.DoesNotExist, zoneinfo.ZoneInfoNotFoundError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)


class TwoFactorRequiredMiddleware:
    """Site moderators and club owners must log in with a second factor: a signed-in session of
    theirs that has not passed one may only set it up (or give its code), log out, switch the
    language and load static files. After django-otp's ``OTPMiddleware``.

    Whether a person must is asked again every ``RECHECK_SECONDS`` (the answer "no" is kept in
    the session meanwhile, so ordinary players' pages cost no extra query), so a player made
    club owner is asked to set it up within minutes.
    """

    RECHECK_SECONDS = 300
    NOT_REQUIRED_UNTIL = "two_factor_not_required_until"
    OPEN_PREFIXES = ("/static/", "/i18n/", "/healthz", "/accounts/logout/", "/accounts/email/")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refusal = self.refusal(request)
        return refusal if refusal is not None else self.get_response(request)

    def refusal(self, request):
        from django.http import JsonResponse
        from django.shortcuts import redirect
        from django.urls import reverse
        from django.utils.translation import gettext as _

        from rosbi_platform.accounts import two_factor

        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated or user.is_verified():
            return None
        if request.path.startswith(self.OPEN_PREFIXES):
            return None
        now = time.time()
        if request.session.get(self.NOT_REQUIRED_UNTIL, 0) > now:
            return None
        if not two_factor.must_use_two_factor(user):
            request.session[self.NOT_REQUIRED_UNTIL] = now + self.RECHECK_SECONDS
            return None
        has_device = two_factor.has_two_factor(user)
        target = reverse("accounts:login_code" if has_device else "accounts:two_factor_setup")
        if request.path == target:
            return None
        sentence = _("Site moderators and club owners must use two-factor log-in.")
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": sentence, "code": "two_factor_required"}, status=403)
        return redirect(target)
