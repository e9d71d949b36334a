"""Sign-up, log-in, log-out, language switch and profile editing through the real views."""

import pytest
from django.conf import settings
from django.core import mail
from django.core.exceptions import ValidationError

from rosbi_platform.accounts.models import Profile, User
from rosbi_platform.accounts.services import register_user, update_profile

pytestmark = pytest.mark.django_db
PASSWORD = "unter-ober-koenig-42"


def make_player(username: str = "anna", language: str = "en") -> User:
    return register_user(
        username=username, email=f"{username}@example.com", password=PASSWORD, language=language
    )


def test_sign_up_creates_user_and_profile_and_logs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bernd",
            "email": "bernd@example.com",
            "display_name": "Bernd B.",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    user = User.objects.get(username="bernd")
    assert user.check_password(PASSWORD)
    assert user.profile.display_name == "Bernd B."
    profile_page = client.get("/accounts/profile/")
    assert profile_page.status_code == 200
    assert "Bernd B." in profile_page.content.decode()
    assert "Welcome to Rosbi!" in profile_page.content.decode()


def test_sign_up_rejects_mismatched_passwords(client):
    response = client.post(
        "/accounts/signup/",
        {"username": "x", "email": "x@example.com", "password1": PASSWORD, "password2": "other"},
    )

    assert response.status_code == 200
    assert not User.objects.filter(username="x").exists()
    assert response.context["form"].errors["password2"]


def test_register_user_validates_the_password():
    with pytest.raises(ValidationError):
        register_user(username="clara", email="c@example.com", password="123")
    assert not User.objects.filter(username="clara").exists()


def test_log_in_applies_the_profile_language_and_log_out_needs_post(client):
    make_player("dieter", language="de")

    response = client.post("/accounts/login/", {"username": "dieter", "password": PASSWORD})

    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    home = client.get("/")
    assert home.wsgi_request.user.username == "dieter"
    assert 'lang="de"' in home.content.decode()
    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/").status_code == 302
    assert not client.get("/").wsgi_request.user.is_authenticated


def test_log_in_with_a_wrong_password_fails(client):
    make_player("elif")

    response = client.post("/accounts/login/", {"username": "elif", "password": "wrong"})

    assert response.status_code == 200
    assert not response.wsgi_request.user.is_authenticated


def test_language_switch_renders_the_site_in_german(client):
    english = client.get("/").content.decode()
    assert 'lang="en"' in english
    assert "Tournaments" in english

    response = client.post("/i18n/setlang/", {"language": "de", "next": "/tournaments/"})

    assert response.status_code == 302
    assert response["Location"] == "/tournaments/"
    german = client.get("/tournaments/").content.decode()
    assert 'lang="de"' in german
    assert "Turniere" in german
    assert "Kommende Turniere" in german


def test_profile_edit_saves_and_switches_language(client):
    player = make_player("franz")
    client.force_login(player)

    response = client.post(
        "/accounts/profile/edit/",
        {
            "display_name": "Franz F.",
            "card_look": "french",
            "language": "de",
            "time_zone": "America/New_York",
        },
    )

    assert response.status_code == 302
    profile = Profile.objects.get(user=player)
    assert (profile.display_name, profile.card_look) == ("Franz F.", "french")
    assert (profile.language, profile.time_zone) == ("de", "America/New_York")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert "Dein Profil wurde gespeichert." in client.get("/accounts/profile/").content.decode()


def test_profile_edit_rejects_an_unknown_time_zone(client):
    player = make_player("gerd")
    client.force_login(player)

    response = client.post(
        "/accounts/profile/edit/",
        {"display_name": "", "card_look": "german", "language": "en", "time_zone": "Mars/Olympus"},
    )

    assert response.status_code == 200
    assert "time_zone" in response.context["form"].errors
    assert Profile.objects.get(user=player).time_zone == "Europe/Berlin"


def test_update_profile_service_validates_time_zone():
    player = make_player("hanna")
    with pytest.raises(ValidationError):
        update_profile(player, time_zone="Not/AZone")
    assert update_profile(player, time_zone="Asia/Tokyo").time_zone == "Asia/Tokyo"


def test_profile_is_created_lazily_for_users_made_elsewhere(client):
    admin = User.objects.create_superuser("boss", "boss@example.com", PASSWORD)
    client.force_login(admin)

    assert client.get("/accounts/profile/").status_code == 200
    assert Profile.objects.filter(user=admin).exists()


def test_profile_requires_login(client):
    response = client.get("/accounts/profile/")

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_password_reset_sends_a_working_link(client):
    make_player("ida")

    client.post("/accounts/password/reset/", {"email": "ida@example.com"})

    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/password/reset/" in line)
    confirm = client.get(link.split("testserver", 1)[1], follow=True)
    assert confirm.context["validlink"] is True


def test_password_change(client):
    player = make_player("jan")
    client.force_login(player)
    new_password = "schellen-daus-99"

    response = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": new_password, "new_password2": new_password},
    )

    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password(new_password)


# --------------------------------------- display names do not impersonate (issue 25, defect 9)


@pytest.mark.parametrize(
    "name",
    [
        "organiser",
        "Organizer",
        "ORGANISATOR",
        "Veranstalter",
        "Moderator",
        "Administrator",
        "admin",
        "The Admin Team",
        "Rosbi",
        "Staff",
        "bot",
        "S y s t e m",
        "Оrganiser",  # a Cyrillic О
        "ｏｒｇａｎｉｓｅｒ",  # full-width letters
        "Modérator",
    ],
)
def test_a_display_name_may_not_claim_a_role_of_the_site(name):
    player = make_player("ordinary")
    with pytest.raises(ValidationError) as refused:
        update_profile(player, display_name=name)
    assert "display_name" in refused.value.message_dict
    assert Profile.objects.get(user=player).display_name == ""
    with pytest.raises(ValidationError):
        register_user(
            username="newcomer", email="n@example.com", password=PASSWORD, display_name=name
        )
    assert not User.objects.filter(username="newcomer").exists()


@pytest.mark.parametrize("name", ["dieter", "DIETER", " Dieter ", "Diéter", "Dіeter", "Die-ter"])
def test_a_display_name_may_not_be_another_players_name(name):
    make_player("dieter")
    anna = make_player("anna")
    update_profile(anna, display_name="Anna Ä.")
    impostor = make_player("impostor")
    with pytest.raises(ValidationError, match="Another player is called this"):
        update_profile(impostor, display_name=name)
    for taken in ("anna a", "ANNA  Ä", "Аnna A."):  # anna's display name, in other spellings
        with pytest.raises(ValidationError, match="Another player is called this"):
            update_profile(impostor, display_name=taken)


def test_ordinary_and_own_names_are_fine():
    franz = make_player("franz")
    update_profile(franz, display_name="Franz")  # their own user name
    update_profile(franz, display_name="Franz F.")
    update_profile(franz, display_name="Franz F.")  # unchanged: no second check
    update_profile(make_player("staffan"), display_name="Staffan")
    assert Profile.objects.get(user=franz).display_name == "Franz F."


def test_the_profile_and_sign_up_forms_show_the_refusal(client):
    make_player("dieter")
    player = make_player("franz")
    client.force_login(player)
    page = client.post(
        "/accounts/profile/edit/",
        {"display_name": "Dieter", "card_look": "french", "language": "en", "time_zone": "UTC"},
    )
    assert page.status_code == 200
    assert "Another player is called this" in page.content.decode()
    client.logout()
    page = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "new@example.com",
            "display_name": "Organiser",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert page.status_code == 200
    assert "site&#x27;s roles" in page.content.decode()
    assert not User.objects.filter(username="newcomer").exists()


def test_without_a_display_name_the_user_name_may_not_impersonate_either():
    dieter = make_player("dk")
    update_profile(dieter, display_name="Dieter")
    for username in ("dieter", "Moderator"):
        with pytest.raises(ValidationError) as refused:
            register_user(username=username, email="x@example.com", password=PASSWORD)
        assert "username" in refused.value.message_dict
    assert list(User.objects.values_list("username", flat=True)) == ["dk"]
