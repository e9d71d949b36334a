"""Download my data and delete my account from the profile page, in English and German: the
download is a JSON file of the player's own data; deleting asks for the password, explains what
happens, refuses a wrong password, then signs the player out for good."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.e2e.screens import VIEWPORTS, axe_problems, session_context, shoot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"
TEXTS = {
    "en": {
        "download": "Download my data",
        "delete": "Delete my account",
        "wrong": "That is not your password.",
        "password": "Your password",
        "confirm": "I understand",
        "submit": "Delete my account for good",
        "done": "Your account is deleted.",
    },
    "de": {
        "download": "Meine Daten herunterladen",
        "delete": "Mein Konto löschen",
        "wrong": "Das ist nicht dein Passwort.",
        "password": "Dein Passwort",
        "confirm": "Ich verstehe",
        "submit": "Mein Konto endgültig löschen",
        "done": "Dein Konto ist gelöscht.",
    },
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_download_my_data_and_delete_my_account(asgi_live_server, chromium, language):
    from rosbi_platform.accounts import tokens
    from tests.games.factories import UserFactory

    text = TEXTS[language]
    user = UserFactory(username=f"leaver-{language}")
    secret = tokens.create_token(user, "my bot", ["read"]).secret
    base = asgi_live_server.url
    context = session_context(chromium, base, user, VIEWPORTS["1280x800"], language, axe=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto(f"{base}/accounts/profile/")
    with page.expect_download() as waiting:
        page.get_by_role("link", name=text["download"], exact=True).click()
    download = waiting.value
    assert download.suggested_filename.startswith(f"rosbi-data-{user.username}-")
    document = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert document["accounts"]["account"]["username"] == user.username
    assert [t["name"] for t in document["accounts"]["api_tokens"]] == ["my bot"]
    assert secret not in json.dumps(document)

    page.get_by_role("link", name=text["delete"], exact=True).click()
    page.wait_for_url(f"{base}/accounts/profile/delete/")
    assert page.locator("h1").text_content().strip() == text["delete"]
    assert axe_problems(page) == []
    shoot(page, f"delete-account-{language}", full_page=True)

    page.get_by_label(text["password"]).fill("not my password")
    page.get_by_label(text["confirm"]).check()
    page.get_by_role("button", name=text["submit"]).click()
    assert text["wrong"] in page.content()
    user.refresh_from_db()
    assert user.deleted_at is None

    page.get_by_label(text["password"]).fill(PASSWORD)
    page.get_by_label(text["confirm"]).check()
    page.get_by_role("button", name=text["submit"]).click()
    page.wait_for_url(f"{base}/")
    assert text["done"] in page.content()
    user.refresh_from_db()
    assert user.deleted_at is not None and user.username.startswith("deleted-")

    page.goto(f"{base}/accounts/profile/")
    assert "/accounts/login/" in page.url, "signed out for good"
    assert errors == []
    context.close()
