"""Contracts and house rules (RULES.md sections 2, 4 and 5)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Contract(StrEnum):
    """The six contracts, in the fixed order of a Partie."""

    NO_TRICKS = "no_tricks"
    NO_HEARTS = "no_hearts"
    NO_JACKS = "no_jacks"
    NO_KING_OF_HEARTS = "no_king_of_hearts"
    HUNDRED = "hundred"
    ROSBIRATSCHKA = "rosbiratschka"

    @property
    def is_trick_contract(self) -> bool:
        return self in TRICK_CONTRACTS

    @property
    def number(self) -> int:
        """1-based position in the Partie."""
        return CONTRACT_ORDER.index(self) + 1

    @property
    def german_name(self) -> str:
        return GERMAN_CONTRACT_NAMES[self]


CONTRACT_ORDER: tuple[Contract, ...] = tuple(Contract)
TRICK_CONTRACTS = frozenset(
    {Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS, Contract.NO_KING_OF_HEARTS}
)
GERMAN_CONTRACT_NAMES = {
    Contract.NO_TRICKS: "Keinen Stich",
    Contract.NO_HEARTS: "Keine Herzen",
    Contract.NO_JACKS: "Keine Unter",
    Contract.NO_KING_OF_HEARTS: "Achtung, Herz-König!",
    Contract.HUNDRED: "Hundert",
    Contract.ROSBIRATSCHKA: "Rosbiratschka",
}

LAYOUT_EXTEND_FIRST = "extend_first"
LAYOUT_FREE = "free"


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The switchable rules of RULES.md section 5; the defaults are the standard game."""

    doubling: bool = True
    layout: str = LAYOUT_EXTEND_FIRST

    def __post_init__(self) -> None:
        if not isinstance(self.doubling, bool):
            raise ValueError("house rule 'doubling' must be true or false")
        if self.layout not in (LAYOUT_EXTEND_FIRST, LAYOUT_FREE):
            raise ValueError('house rule \'layout\' must be "extend_first" or "free"')

    @classmethod
    def from_dict(cls, data: Any) -> HouseRules:
        """Rules from a record's ``rules`` object; missing keys take the defaults, unknown keys fail."""
        if data is None:
            return DEFAULT_RULES
        if not isinstance(data, dict):
            raise ValueError("'rules' must be an object")
        unknown = set(data) - {"doubling", "layout"}
        if unknown:
            raise ValueError(f"unknown house rule {sorted(unknown)[0]!r}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {"doubling": self.doubling, "layout": self.layout}


DEFAULT_RULES = HouseRules()


def parse_contract(value: Any) -> Contract:
    try:
        return Contract(value)
    except (ValueError, TypeError):
        names = ", ".join(c.value for c in Contract)
        raise ValueError(f"unknown contract {value!r} (one of {names})") from None


CONTRACT_IDS = {c: i for i, c in enumerate(CONTRACT_ORDER)}
"""Each contract's number 0-5, which a ``Deal`` keeps so its hot paths compare integers."""
NO_TRICKS_ID = CONTRACT_IDS[Contract.NO_TRICKS]
NO_KING_ID = CONTRACT_IDS[Contract.NO_KING_OF_HEARTS]
