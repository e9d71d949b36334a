"""A new player, in English and in German: signs up, opens the verification link from the
e-mail, turns on two-factor log-in with the secret the page shows (the code computed here as an
authenticator app would), logs out and logs in again with password and code."""

from __future__ import annotations

import base64
import re
import time

import pytest
from django.core import mail
from django_otp.oath import TOTP

from rosbi_platform.accounts import verification
from rosbi_platform.accounts.models import User

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "unter-ober-koenig-42"
LINK = re.compile(r"https?://\S+(/accounts/email/verify/\S+/)")
TEXTS = {
    "en": {
        "verified": "is confirmed",
        "setup": "Set up two-factor log-in",
        "codes": "Recovery codes",
    },
    "de": {
        "verified": "ist bestätigt",
        "setup": "Zwei-Faktor-Anmeldung einrichten",
        "codes": "Wiederherstellungscodes",
    },
}


def app_code(secret: str, *, steps_ahead: int = 0) -> str:
    """What an authenticator app shows for the secret typed in from the page."""
    plain = secret.replace(" ", "")
    key = base64.b32decode(plain + "=" * (-len(plain) % 8))
    totp = TOTP(key, step=30, t0=0, digits=6)
    totp.time = time.time() + steps_ahead * 30
    return f"{totp.token():06d}"


@pytest.mark.parametrize("language", ["en", "de"])
def test_sign_up_verify_and_log_in_with_two_factor(chromium, asgi_live_server, language):
    base = asgi_live_server.url
    texts = TEXTS[language]
    username = f"neu_{language}"
    context = chromium.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-GB", reduced_motion="reduce"
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()

    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_selector("[data-ref=verify-email-notice]")
    user = User.objects.get(username=username)
    assert not verification.is_email_verified(user)

    (message,) = [m for m in mail.outbox if m.to == [f"{username}@example.com"]]
    page.goto(base + LINK.search(message.body).group(1))
    assert texts["verified"] in page.locator("[data-ref=verify-result]").inner_text()
    assert verification.is_email_verified(user)

    page.goto(f"{base}/accounts/profile/")
    page.locator("[data-ref=two-factor-link]").click()
    page.locator("[data-ref=two-factor-setup]").click()
    assert page.locator("h1").inner_text() == texts["setup"]
    assert page.locator(".qr-code svg").count() == 1
    secret = page.locator("[data-ref=totp-secret]").inner_text()
    page.fill("input[name=code]", app_code(secret))
    page.locator("[data-ref=setup-form] button[type=submit]").click()
    page.wait_for_selector("[data-ref=recovery-codes]")
    assert page.locator("h1").inner_text() == texts["codes"]
    assert page.locator("[data-ref=recovery-codes] li").count() == 10

    page.locator("header form[action$='/logout/'] button").click()
    page.goto(f"{base}/accounts/login/?next=/accounts/profile/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_selector("[data-ref=login-code-form]")
    # The set-up used this period's code; an app shows the next one a few seconds later.
    page.fill("input[name=code]", app_code(secret, steps_ahead=1))
    page.locator("[data-ref=login-code-form] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/accounts/profile/$"))
    assert page.locator("[data-ref=verify-email-notice]").count() == 0
    context.close()
