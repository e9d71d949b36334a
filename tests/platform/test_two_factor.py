"""Two-factor log-in (django-otp): set-up with a TOTP app, log-in with a code or a one-time
recovery code, wrong codes refused and limited, moderators and club owners held at the set-up,
and the Django admin only for OTP-verified sessions."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import reverse
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from rosbi_platform.accounts import two_factor
from rosbi_platform.accounts.models import ClubMembership, User
from tests.api_clients import assert_error
from tests.games.factories import UserFactory
from tests.tournaments.factories import MembershipFactory
from tests.two_factor import login_without_second_factor, totp_code

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


def set_up(user) -> tuple[TOTPDevice, list[str]]:
    device = two_factor.pending_authenticator(user)
    return two_factor.confirm_authenticator(user, totp_code(device))


def log_in(client, user, **extra):
    return client.post(
        reverse("accounts:login"), {"username": user.username, "password": PASSWORD, **extra}
    )


def signed_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_set_up_through_the_pages_shows_a_qr_code_the_secret_and_recovery_codes_once(client):
    player = UserFactory()
    client.force_login(player)
    page = client.get(reverse("accounts:two_factor_setup"))
    html = page.content.decode()
    assert page.status_code == 200 and "<svg" in html and 'data-ref="totp-secret"' in html
    device = TOTPDevice.objects.get(user=player, confirmed=False)
    assert two_factor.secret_text(device) in html

    wrong = client.post(reverse("accounts:two_factor_setup"), {"code": "000000"})
    assert wrong.status_code == 400 and not two_factor.has_two_factor(player)

    done = client.post(
        reverse("accounts:two_factor_setup"), {"code": totp_code(device, steps_ahead=1)}
    )
    codes = [t.token for t in StaticToken.objects.filter(device__user=player)]
    assert done.status_code == 200 and len(codes) == 10
    assert all(code in done.content.decode() for code in codes)
    assert two_factor.has_two_factor(player)
    assert client.session[DEVICE_ID_SESSION_KEY] == device.persistent_id
    # Shown once: the settings page only counts them.
    settings_page = client.get(reverse("accounts:two_factor")).content.decode()
    assert "10 recovery codes left" in settings_page and codes[0] not in settings_page


def test_log_in_asks_for_the_code_after_the_password(client):
    player = UserFactory()
    device, _codes = set_up(player)

    response = log_in(client, player, next="/lobby/")
    assert response.status_code == 302 and response["Location"] == reverse("accounts:login_code")
    assert not signed_in(client)
    assert client.get(reverse("accounts:profile")).status_code == 302  # still anonymous

    done = client.post(reverse("accounts:login_code"), {"code": totp_code(device, steps_ahead=1)})
    assert done.status_code == 302 and done["Location"] == "/lobby/"
    assert signed_in(client) and client.session[DEVICE_ID_SESSION_KEY] == device.persistent_id


def test_a_recovery_code_works_once(client):
    player = UserFactory()
    _device, codes = set_up(player)

    log_in(client, player)
    assert client.post(reverse("accounts:login_code"), {"code": codes[0]}).status_code == 302
    assert signed_in(client) and two_factor.remaining_recovery_codes(player) == 9

    client.logout()
    log_in(client, player)
    again = client.post(reverse("accounts:login_code"), {"code": codes[0]})
    assert again.status_code == 400 and not signed_in(client)


def test_wrong_codes_are_refused_throttled_and_end_the_log_in(client, settings):
    player = UserFactory()
    device, _codes = set_up(player)
    log_in(client, player)

    for _ in range(settings.TWO_FACTOR_MAX_TRIES - 1):
        wrong = client.post(reverse("accounts:login_code"), {"code": "123456"})
        assert wrong.status_code == 400 and not signed_in(client)
    device.refresh_from_db()
    assert device.throttling_failure_count >= 1  # django-otp backs off each wrong code

    last = client.post(reverse("accounts:login_code"), {"code": "123456"})
    assert last.status_code == 302 and last["Location"] == reverse("accounts:login")
    # The password must be given again: the right code alone no longer logs in.
    device.throttle_reset()
    late = client.post(reverse("accounts:login_code"), {"code": totp_code(device, steps_ahead=1)})
    assert late["Location"] == reverse("accounts:login") and not signed_in(client)


def test_the_code_page_without_a_password_first_logs_nobody_in(client):
    assert client.post(reverse("accounts:login_code"), {"code": "123456"})["Location"] == (
        reverse("accounts:login")
    )


def test_turning_it_off_needs_a_code_and_new_recovery_codes_replace_the_old(client):
    player = UserFactory()
    device, codes = set_up(player)
    log_in(client, player)
    client.post(reverse("accounts:login_code"), {"code": totp_code(device, steps_ahead=1)})

    fresh = client.post(reverse("accounts:two_factor_recovery_codes"))
    new_codes = [t.token for t in StaticToken.objects.filter(device__user=player)]
    assert fresh.status_code == 200 and not set(codes) & set(new_codes)

    refused = client.post(reverse("accounts:two_factor_disable"), {"code": "999999"})
    assert refused.status_code == 400 and two_factor.has_two_factor(player)
    client.post(reverse("accounts:two_factor_disable"), {"code": new_codes[0]})
    assert not two_factor.has_two_factor(player)


def club_owner():
    return MembershipFactory(role=ClubMembership.Role.OWNER).user


def site_moderator():
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="moderate_site"))
    return user


@pytest.mark.parametrize("make", [club_owner, site_moderator], ids=["owner", "moderator"])
def test_those_who_must_use_it_can_only_set_it_up(client, make):
    person = make()
    assert two_factor.must_use_two_factor(person)
    assert not two_factor.must_use_two_factor(UserFactory())
    login_without_second_factor(client, person)

    for path in ["/", "/lobby/", reverse("accounts:profile"), "/clubs/"]:
        response = client.get(path)
        assert response.status_code == 302 and response["Location"] == reverse(
            "accounts:two_factor_setup"
        ), path
    assert_error(client.get("/api/v1/me"), 403, "two_factor_required")
    page = client.get(reverse("accounts:two_factor_setup"))
    assert page.status_code == 200 and "must use two-factor log-in" in page.content.decode()

    device = TOTPDevice.objects.get(user=person, confirmed=False)
    client.post(reverse("accounts:two_factor_setup"), {"code": totp_code(device)})
    assert client.get("/lobby/").status_code == 200
    # And they cannot turn it off again.
    refused = client.post(
        reverse("accounts:two_factor_disable"), {"code": totp_code(device, steps_ahead=1)}
    )
    assert refused.status_code == 400 and two_factor.has_two_factor(person)


def test_an_owner_with_a_device_but_an_unverified_session_gives_a_code(client):
    owner = club_owner()
    device, _codes = set_up(owner)
    login_without_second_factor(client, owner)
    assert client.get("/lobby/")["Location"] == reverse("accounts:login_code")
    client.post(reverse("accounts:login_code"), {"code": totp_code(device, steps_ahead=1)})
    assert client.get("/lobby/").status_code == 200


def test_the_admin_requires_a_verified_session_from_every_staff_user(client):
    admin_user = UserFactory(is_staff=True)  # staff, neither moderator nor owner
    assert not two_factor.must_use_two_factor(admin_user)
    login_without_second_factor(client, admin_user)
    assert client.get("/lobby/").status_code == 200  # the site itself asks nothing of them
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    followed = client.get(response["Location"])
    assert followed.status_code == 302 and followed["Location"] == reverse(
        "accounts:two_factor_setup"
    )

    device, _codes = set_up(admin_user)
    client.logout()
    log_in(client, admin_user)
    client.post(reverse("accounts:login_code"), {"code": totp_code(device, steps_ahead=1)})
    assert client.get("/admin/").status_code == 200


def test_reset_two_factor_removes_every_device_through_the_command(capsys):
    owner = club_owner()
    set_up(owner)
    call_command("reset_two_factor", owner.username)
    assert not two_factor.has_two_factor(owner)
    assert not StaticToken.objects.filter(device__user=owner).exists()
    assert owner.username in capsys.readouterr().out


def test_a_token_is_made_only_from_a_session_that_passed_the_second_factor(client):
    player = UserFactory()
    set_up(player)
    login_without_second_factor(client, player)
    refused = client.post(reverse("accounts:token_create"), {"name": "bot", "scopes": ["read"]})
    assert refused.status_code == 403 and not player.access_tokens.exists()


def test_the_demo_organiser_sets_it_up_once_at_the_first_log_in(client, settings, tmp_path):
    from rosbi_platform.management.commands.runplatform import login_box
    from rosbi_platform.management.commands.seed_demo import read_demo_logins

    settings.DEMO_LOGINS_FILE = tmp_path / "demo-logins.json"
    call_command("seed_demo", stdout=io.StringIO())
    logins = read_demo_logins()
    organiser = User.objects.get(username="organiser")
    assert "two-factor" in login_box("http://127.0.0.1:8000/", logins)

    client.post(
        reverse("accounts:login"),
        {"username": "organiser", "password": logins["organiser"]["password"]},
    )
    assert client.get("/clubs/")["Location"] == reverse("accounts:two_factor_setup")
    assert client.get(reverse("accounts:two_factor_setup")).status_code == 200
    device = TOTPDevice.objects.get(user=organiser, confirmed=False)
    client.post(reverse("accounts:two_factor_setup"), {"code": totp_code(device)})
    assert client.get("/clubs/").status_code == 200
    assert client.get("/admin/").status_code == 200

    client.logout()
    client.post(
        reverse("accounts:login"),
        {"username": "organiser", "password": logins["organiser"]["password"]},
    )
    assert not signed_in(client)  # the code comes next
    client.post(reverse("accounts:login_code"), {"code": totp_code(device, steps_ahead=1)})
    assert client.get("/admin/").status_code == 200
