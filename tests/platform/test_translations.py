"""The committed catalogues are complete and compiled, so a fresh clone needs no gettext."""

import gettext
import re
from pathlib import Path

import pytest

LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"
ENTRY = re.compile(
    r'^(?:msgctxt ((?:".*"\n)+))?msgid ((?:".*"\n)+)msgstr ((?:".*"\n?)+)', re.MULTILINE
)


def parse_po(path: Path) -> dict[str, str]:
    def join(chunk: str) -> str:
        parts = re.findall(r'"(.*)"', chunk)
        return "".join(parts).encode().decode("unicode_escape").encode("latin-1").decode()

    entries = {}
    for match in ENTRY.finditer(path.read_text(encoding="utf-8")):
        msgid = join(match.group(2))
        if msgid and match.group(1) is None:  # entries with a context are in `parse_po_contexts`
            entries[msgid] = join(match.group(3))
    return entries


def parse_po_contexts(path: Path) -> dict[tuple[str, str], str]:
    """The entries that carry a ``msgctxt`` (the same English word, two German ones)."""
    entries = {}
    for match in ENTRY.finditer(path.read_text(encoding="utf-8")):
        if match.group(1) is not None:
            context = "".join(re.findall(r'"(.*)"', match.group(1)))
            entries[context, "".join(re.findall(r'"(.*)"', match.group(2)))] = "".join(
                re.findall(r'"(.*)"', match.group(3))
            )
    return entries


@pytest.mark.parametrize("language", ["de", "en"])
def test_catalogue_is_complete_and_compiled(language):
    po_entries = parse_po(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")
    compiled = gettext.GNUTranslations(
        (LOCALE_DIR / language / "LC_MESSAGES" / "django.mo").open("rb")
    )

    assert len(po_entries) > 50
    untranslated = [msgid for msgid, msgstr in po_entries.items() if not msgstr]
    assert untranslated == []
    stale = [msgid for msgid, msgstr in po_entries.items() if compiled.gettext(msgid) != msgstr]
    assert stale == [], "run `make messages` to recompile the .mo files"
    in_context = parse_po_contexts(LOCALE_DIR / language / "LC_MESSAGES" / "django.po")
    assert ("card suit", "Clubs") in in_context and ("button", "Open") in in_context
    for (context, msgid), msgstr in in_context.items():
        assert msgstr and compiled.pgettext(context, msgid) == msgstr, (context, msgid)


def test_german_is_really_german():
    german = parse_po(LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po")
    same_as_english = {msgid for msgid, msgstr in german.items() if msgid == msgstr}

    assert german["Tournaments"] == "Turniere"
    assert german["Log in"] == "Anmelden"
    # Only names, loanwords and the game's own German terms may stay as they are.
    game_terms = {"Partie", "Rosbiratschka", "Unter", "Ober", "Daus"}
    loanwords = {"Lobby", "Status", "Admin", "Name", "Bot ({level})"}
    assert same_as_english <= loanwords | game_terms


def test_german_says_replay_one_way():
    """Replaying a Partie is "Nachspielen" everywhere (issue 16, defect 6: "Replay" was also
    rendered as "Wiederholung")."""
    german = parse_po(LOCALE_DIR / "de" / "LC_MESSAGES" / "django.po")
    replay = {msgid: msgstr for msgid, msgstr in german.items() if "replay" in msgid.lower()}

    assert german["Replay"] == "Nachspielen"
    assert [msgid for msgid, msgstr in german.items() if "Wiederholung" in msgstr] == []
    assert [msgid for msgid, msgstr in replay.items() if "nachspiel" not in msgstr.lower()] == []
