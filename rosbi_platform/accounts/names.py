"""Display names that do not impersonate: no titles of office, no other player's name.

Two names are "the same" when their skeletons are equal: Unicode compatibility forms folded
(NFKC: full-width letters, ligatures), case folded, accents dropped, the common Cyrillic and
Greek look-alikes of Latin letters mapped to them, and everything that is not a letter or a
digit removed (spaces, dots, dashes, zero-width characters). "Anna Ä.", "anna a" and
"Аnnа А" (Cyrillic А) are then one name. The reserved words are the site's roles in English
and German, and the site's own name.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Cyrillic and Greek letters drawn like Latin ones (after case folding).
LOOK_ALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "і": "i", "ї": "i", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y",
        "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ı": "i",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c", "μ": "u",
    }
)  # fmt: skip

# Contained anywhere in a name's skeleton: "Organiser Anna" and "TheModerator" are refused.
RESERVED_PARTS = (
    "organiser", "organizer", "organisator", "organisatorin", "veranstalter",
    "administrator", "admin", "moderator", "rosbi", "support", "schiedsrichter",
)  # fmt: skip
# Refused as the whole name only: too short to refuse inside other names ("Staffan").
RESERVED_WHOLE = ("staff", "system", "bot", "mod", "team", "official", "offiziell", "root")


def skeleton(name: str) -> str:
    """The form two names are compared in (see the module)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    without_accents = "".join(
        char for char in unicodedata.normalize("NFKD", folded) if not unicodedata.combining(char)
    )
    return "".join(char for char in without_accents.translate(LOOK_ALIKES) if char.isalnum())


def is_reserved(name: str) -> bool:
    key = skeleton(name)
    return key in RESERVED_WHOLE or any(part in key for part in RESERVED_PARTS)


def check_display_name(name: str, user_id: int | None, field: str = "display_name") -> None:
    """Refuse a display name that is reserved or another player's user or display name
    (``user_id`` is the player choosing it; their own user name is theirs to use). ``field``
    names the form field the refusal belongs to (``username`` when a new player's user name is
    what others will see).

    Reads every other player's names once: a display name changes rarely."""
    from rosbi_platform.accounts.models import User

    if not name.strip():
        return
    if is_reserved(name):
        raise ValidationError(
            {field: _("This name belongs to the site's roles: please choose another.")}
        )
    key = skeleton(name)
    if not key:
        raise ValidationError({field: _("A display name needs at least one letter or digit.")})
    others = User.objects.exclude(pk=user_id).values_list("username", "profile__display_name")
    for username, display_name in others.iterator(chunk_size=2000):
        if skeleton(username) == key or (display_name and skeleton(display_name) == key):
            raise ValidationError(
                {field: _("Another player is called this: please choose another name.")}
            )
