"""Cards, suits, ranks and the packs for 3 to 6 players.

Every card is a small interned value with a dense index (``suit * 9 + rank``) so that the
engine can keep hands as integer bit masks: following suit, finding a trick's winner and
listing legal moves become a handful of integer operations, which is what lets bots simulate
thousands of deals per second in pure Python.
"""

from __future__ import annotations

from typing import Final

SUITS: Final = "CSHD"
"""Suit codes in index order: C (Eichel/Clubs), S (Grün/Spades), H (Herz/Hearts), D (Schellen/Diamonds)."""

RANKS: Final = "6789TJQKA"
"""Rank codes from lowest to highest; the index of a rank is its strength within a suit."""

CLUBS, SPADES, HEARTS, DIAMONDS = range(4)
SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)

SUIT_NAMES_FRENCH: Final = ("Clubs", "Spades", "Hearts", "Diamonds")
SUIT_NAMES_GERMAN: Final = ("Eichel", "Grün", "Herz", "Schellen")
RANK_NAMES_FRENCH: Final = ("Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
RANK_NAMES_GERMAN: Final = (
    "Sechs",
    "Sieben",
    "Acht",
    "Neun",
    "Zehn",
    "Unter",
    "Ober",
    "König",
    "Daus",
)

HUNDRED_VALUES: Final = (0, 0, 0, 0, 10, 2, 3, 4, 11)
"""Card values in the ``hundred`` contract, by rank index (the whole pack adds up to 120)."""

NUM_CARDS: Final = 36
SUIT_MASKS: Final = tuple(0x1FF << (9 * s) for s in range(4))
FULL_MASK: Final = (1 << NUM_CARDS) - 1


class Card:
    """One playing card; compare by identity or index, write it with ``code`` (e.g. ``"KH"``).

    Instances are interned: ``Card.from_code("KH") is Card.from_code("KH")``.
    """

    __slots__ = ("index", "suit", "rank", "code", "bit")

    index: int
    suit: int
    rank: int
    code: str
    bit: int

    def __init__(self, index: int) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "suit", index // 9)
        object.__setattr__(self, "rank", index % 9)
        object.__setattr__(self, "code", RANKS[index % 9] + SUITS[index // 9])
        object.__setattr__(self, "bit", 1 << index)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.from_code, (self.code,))

    @property
    def suit_code(self) -> str:
        return SUITS[self.suit]

    @property
    def rank_code(self) -> str:
        return RANKS[self.rank]

    @property
    def french_name(self) -> str:
        """English name of the French-suited card, e.g. "King of Hearts"."""
        return f"{RANK_NAMES_FRENCH[self.rank]} of {SUIT_NAMES_FRENCH[self.suit]}"

    @property
    def german_name(self) -> str:
        """German name of the German-suited card, e.g. "Herz-König"."""
        return f"{SUIT_NAMES_GERMAN[self.suit]}-{RANK_NAMES_GERMAN[self.rank]}"

    @property
    def hundred_value(self) -> int:
        return HUNDRED_VALUES[self.rank]

    @staticmethod
    def from_code(code: str) -> Card:
        """The card written ``code``; raises ``ValueError`` for anything that is not a card code."""
        try:
            return CARD_BY_CODE[code]
        except (KeyError, TypeError):
            raise ValueError(
                f"{code!r} is not a card (write rank then suit, e.g. 7C, TH, JD)"
            ) from None


CARDS: Final = tuple(Card(i) for i in range(NUM_CARDS))
CARD_BY_CODE: Final = {c.code: c for c in CARDS}
INDEX_BY_CODE: Final = {c.code: c.index for c in CARDS}

JACK_MASK: Final = sum(1 << (s * 9 + JACK) for s in range(4))
HEART_MASK: Final = SUIT_MASKS[HEARTS]
KING_OF_HEARTS: Final = CARD_BY_CODE["KH"]


class Pass:
    """The only move that is not a card: saying "pass" in the ``rosbiratschka`` layout game."""

    __slots__ = ()
    code = "pass"
    index = NUM_CARDS

    def __repr__(self) -> str:
        return "PASS"

    def __str__(self) -> str:
        return "pass"

    def __reduce__(self) -> str:
        return "PASS"


PASS: Final = Pass()
PASS_INDEX: Final = NUM_CARDS

Move = Card | Pass
MOVES_BY_INDEX: Final[tuple[Move, ...]] = (*CARDS, PASS)
MOVE_INDEX_BY_CODE: Final = {**INDEX_BY_CODE, "pass": PASS_INDEX}


def parse_move(code: str) -> Move:
    """The move written ``code``: a card code or ``"pass"``."""
    if code == "pass":
        return PASS
    return Card.from_code(code)


def _pack_mask(players: int) -> int:
    if players == 3:
        lowest = NINE
    elif players == 4:
        lowest = SEVEN
    else:
        lowest = SIX
    mask = 0
    for s in range(4):
        for r in range(lowest, ACE + 1):
            mask |= 1 << (s * 9 + r)
    if players == 5:
        mask &= ~(1 << (DIAMONDS * 9 + SIX))
    return mask


PACK_MASKS: Final = {n: _pack_mask(n) for n in (3, 4, 5, 6)}
"""The pack for each player count as a bit mask (RULES.md section 1)."""

HAND_SIZES: Final = {3: 8, 4: 8, 5: 7, 6: 6}


def mask_to_cards(mask: int) -> list[Card]:
    """The cards of a bit mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def cards_to_mask(cards: list[Card] | tuple[Card, ...]) -> int:
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


def pack(players: int) -> list[Card]:
    """The cards of the pack for ``players`` (3 to 6), in index order."""
    if players not in PACK_MASKS:
        raise ValueError(f"Rosbiratschka is played by 3 to 6 players, not {players!r}")
    return mask_to_cards(PACK_MASKS[players])


def lowest_rank_in_pack(players: int, suit: int) -> int:
    """The rank where a layout row ends downwards: the lowest of that suit in the pack."""
    suit_cards = PACK_MASKS[players] & SUIT_MASKS[suit]
    return ((suit_cards & -suit_cards).bit_length() - 1) - 9 * suit


ROW_LOW_ENDS: Final = {n: tuple(lowest_rank_in_pack(n, s) for s in range(4)) for n in PACK_MASKS}
"""Per player count, the rank where each suit's layout row ends downwards (C, S, H, D)."""
