"""The Django admin asks for a second factor from everyone (django-otp's ``OTPAdminSite``).

``OTPAdminSite`` opens only to sessions verified by an OTP device. Its own log-in form is not
used: the admin's log-in sends people to the site's log-in (password, then code), or to the
code page or the two-factor set-up when they are signed in without a verified session.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django_otp.admin import OTPAdminSite

from rosbi_platform.accounts import two_factor


class TwoFactorAdminSite(OTPAdminSite):
    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        user = request.user
        if user.is_authenticated and user.is_active and user.is_staff:
            if two_factor.has_two_factor(user):
                return redirect("accounts:login_code")
            return redirect("accounts:two_factor_setup")
        next_url = request.GET.get("next") or reverse("admin:index")
        return redirect(reverse("accounts:login") + "?" + urlencode({"next": next_url}))
