"""One deal in progress: the state every contract shares, its queries and views, and dispatch.

The state keeps hands and taken cards as integer bit masks over card indices (see
``cards.py``); moves are card indices internally (``PASS_INDEX`` for a pass) and ``Card``
values at the public surface. ``Deal(...)`` returns the subclass of its contract's family
(``tricks.py``, ``hundred.py``, ``layout.py``), which holds that family's rules; the loops
that replay records and play out at random for simulations are in ``fast.py``. ``play()``
checks everything and changes nothing when it raises, so a rejected move never corrupts a
table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    CARDS,
    MOVE_INDEX_BY_CODE,
    MOVES_BY_INDEX,
    PACK_MASKS,
    PASS,
    PASS_INDEX,
    Card,
    Move,
    Pass,
    mask_to_cards,
)
from .errors import IllegalMove, MalformedRecord
from .hands import hand_masks
from .penalties import trick_costs
from .rules import CONTRACT_IDS, DEFAULT_RULES, LAYOUT_FREE, Contract, HouseRules

TRICK_COSTS = {n: trick_costs(n) for n in PACK_MASKS}


def card_codes(mask: int) -> list[str]:
    """The codes of a mask's cards, for refusal messages."""
    return [c.code for c in mask_to_cards(mask)]


def only_ints(values: Sequence[object]) -> bool:
    """True when every value is exactly an ``int`` (not a bool, a float or a string)."""
    return set(map(type, values)) == {int}


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in playing order, and who took it."""

    leader: int
    cards: tuple[Card, ...]
    winner: int

    def seat_of(self, position: int, players: int) -> int:
        return (self.leader + position) % players


@dataclass(frozen=True, slots=True)
class Row:
    """A layout row in ``rosbiratschka``: the lowest and highest card laid so far."""

    low: Card
    high: Card


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know (``seat`` set) or what a spectator may know (``seat`` None).

    It never holds a card that is still in another seat's hand: only the viewer's own hand,
    cards on the table and in finished tricks, and counts.
    """

    players: int
    contract: Contract
    dealer: int
    rules: HouseRules
    seat: int | None
    hand: tuple[Card, ...]
    turn: int | None
    legal_moves: tuple[Move, ...]
    hand_sizes: tuple[int, ...]
    history: tuple[tuple[int, Move], ...]
    current_trick: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    scores_so_far: tuple[int, ...]
    hundred_total: int
    rows: tuple[Row | None, ...]
    over: bool
    penalties: tuple[int, ...] | None

    @property
    def move_count(self) -> int:
        return len(self.history)

    @property
    def leader(self) -> int:
        """Who leads (or started) the current trick; the left of the dealer at the start."""
        if self.current_trick:
            return self.current_trick[0][0]
        if self.tricks:
            return self.tricks[-1].winner
        return (self.dealer + 1) % self.players

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form with card codes, for websockets and the API."""
        return {
            "players": self.players,
            "contract": self.contract.value,
            "dealer": self.dealer,
            "rules": self.rules.to_dict(),
            "seat": self.seat,
            "hand": [c.code for c in self.hand],
            "turn": self.turn,
            "legal_moves": [m.code for m in self.legal_moves],
            "hand_sizes": list(self.hand_sizes),
            "history": [[s, m.code] for s, m in self.history],
            "current_trick": [[s, c.code] for s, c in self.current_trick],
            "tricks": [
                {"leader": t.leader, "cards": [c.code for c in t.cards], "winner": t.winner}
                for t in self.tricks
            ],
            "tricks_won": list(self.tricks_won),
            "scores_so_far": list(self.scores_so_far),
            "hundred_total": self.hundred_total,
            "rows": {
                "CSHD"[s]: (None if r is None else [r.low.code, r.high.code])
                for s, r in enumerate(self.rows)
            },
            "over": self.over,
            "penalties": None if self.penalties is None else list(self.penalties),
        }


class Deal:
    """A deal of one contract, from the dealt hands to the penalties.

    Create it with ``Deal(players, contract, dealer, hands, rules)``; ask ``turn`` and
    ``legal_moves()``; ``play(move)`` a card or ``PASS``; when ``over``, read ``penalties``.
    The instance is of a subclass per contract family (tricks, Hundred, layout), which keeps
    the hot paths free of contract dispatch. Each family defines ``legal_mask()`` (the legal
    moves as a bit mask over move indices, bit 36 a pass, 0 once over) and ``play_index(index)``
    (``play()`` for a move index: the rules, checked move by move), and takes its replay and
    random play-out loops from ``fast.py``; the generic versions here are their definition.
    """

    legal_mask: Callable[[], int]
    play_index: Callable[[int], None]

    __slots__ = (
        "players",
        "contract",
        "dealer",
        "rules",
        "_cid",
        "_initial_hands",
        "_hands",
        "_moves",
        "_seats",
        "turn",
        "over",
        "_penalties",
        # trick contracts
        "_trick",
        "_led_mask",
        "_best",
        "_best_seat",
        "_tricks",
        "_taken",
        "_tricks_won",
        "_trick_points",
        "_weights",
        # hundred
        "_total",
        "_scored",
        # layout
        "_low",
        "_high",
        "_ext_mask",
        "_holding",
        "_free",
    )

    def __new__(cls, players: int, contract: Contract | str, *args: Any, **kwargs: Any) -> Deal:
        if cls is Deal:
            try:
                cls = _CLASS_FOR[Contract(contract)]
            except (ValueError, TypeError):
                raise MalformedRecord(f"unknown contract {contract!r}") from None
        return object.__new__(cls)

    def __init__(
        self,
        players: int,
        contract: Contract | str,
        dealer: int,
        hands: Sequence[Iterable[Card | str]],
        rules: HouseRules = DEFAULT_RULES,
    ) -> None:
        if isinstance(players, bool) or players not in PACK_MASKS:
            raise MalformedRecord(f"Rosbiratschka is played by 3 to 6 players, not {players!r}")
        contract = Contract(contract)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise MalformedRecord(f"dealer must be a seat from 0 to {players - 1}, not {dealer!r}")
        if not isinstance(rules, HouseRules):
            raise MalformedRecord("rules must be HouseRules")
        masks = hand_masks(players, hands)
        self._setup(players, contract, dealer, masks, rules)

    @staticmethod
    def from_masks(
        players: int,
        contract: Contract,
        dealer: int,
        masks: Sequence[int],
        rules: HouseRules = DEFAULT_RULES,
    ) -> Deal:
        """A deal from already validated hand masks; for simulations that create many deals."""
        deal = object.__new__(_CLASS_FOR[contract])
        deal._setup(players, contract, dealer, masks, rules)
        return deal

    def _setup(
        self, players: int, contract: Contract, dealer: int, masks: Sequence[int], rules: HouseRules
    ) -> None:
        self.players = players
        self.contract = contract
        self.dealer = dealer
        self.rules = rules
        self._cid = CONTRACT_IDS[contract]
        self._initial_hands = tuple(masks)
        self._hands = list(masks)
        self._moves: list[int] = []
        self._seats: list[int] = []
        self.turn = (dealer + 1) % players
        self.over = False
        self._penalties: list[int] | None = None
        self._trick: list[int] = []
        self._led_mask = 0
        self._best = -1
        self._best_seat = -1
        self._tricks: list[tuple[int, tuple[int, ...], int]] = []
        self._taken = [0] * players
        self._tricks_won = [0] * players
        self._trick_points = [0] * players
        self._weights = TRICK_COSTS[players]
        self._total = 0
        self._scored = [0] * players
        self._low = [-1, -1, -1, -1]
        self._high = [-1, -1, -1, -1]
        self._ext_mask = 0
        self._holding = players
        self._free = rules.layout == LAYOUT_FREE

    def clone(self) -> Deal:
        """An independent copy, for bots that try moves out."""
        other = object.__new__(type(self))
        for name in Deal.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = value.copy()
            object.__setattr__(other, name, value)
        return other

    # ----------------------------------------------------------------- queries

    @property
    def penalties(self) -> tuple[int, ...] | None:
        """Each seat's penalty for the deal once it is over, else None."""
        return None if self._penalties is None else tuple(self._penalties)

    @property
    def settlement(self) -> tuple[str, list[int]] | None:
        """Why the finished deal counts otherwise than its plain costs (doubled or slam), with
        the seats that caused it; None here, since only the trick contracts double
        (``TrickDeal.settlement``)."""
        return None

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(MOVES_BY_INDEX[i] for i in self._moves)

    @property
    def history(self) -> tuple[tuple[int, Move], ...]:
        """Every move so far with the seat that made it."""
        return tuple(zip(self._seats, (MOVES_BY_INDEX[i] for i in self._moves), strict=True))

    @property
    def move_count(self) -> int:
        return len(self._moves)

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(mask_to_cards(self._hands[seat]))

    def initial_hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(mask_to_cards(self._initial_hands[seat]))

    @property
    def initial_hand_masks(self) -> tuple[int, ...]:
        return self._initial_hands

    @property
    def hand_masks(self) -> tuple[int, ...]:
        return tuple(self._hands)

    def legal_moves(self) -> list[Move]:
        """The moves the player on turn may make, cards in index order; empty once over."""
        mask = self.legal_mask()
        out: list[Move] = []
        while mask:
            low = mask & -mask
            out.append(MOVES_BY_INDEX[low.bit_length() - 1])
            mask ^= low
        return out

    # ----------------------------------------------------------------- playing

    def play_out_randomly(self, draw: Callable[[], float]) -> None:
        """Finish the deal with uniformly random legal moves; ``draw`` is ``rng.random``."""
        while not self.over:
            Deal.play_out_randomly_step(self, draw)

    def play_out_randomly_step(self, draw: Callable[[], float]) -> None:
        """Play one uniformly random legal move: the ``k``-th legal move for ``k`` drawn.

        The definition every inlined ``play_out_randomly`` follows draw for draw.
        """
        mask = self.legal_mask()
        count = mask.bit_count()
        if count > 1:
            k = int(draw() * count)
            while k:  # clear the k lowest set bits instead of building a list
                mask &= mask - 1
                k -= 1
        self.play_index((mask & -mask).bit_length() - 1)

    def play(self, move: Move | str) -> None:
        """Play ``move`` (a ``Card``, ``PASS`` or a code) for the seat on turn.

        Raises ``IllegalMove`` with a message for the player and leaves the deal unchanged.
        """
        if isinstance(move, str):
            index = MOVE_INDEX_BY_CODE.get(move)
        elif isinstance(move, (Card, Pass)):
            index = move.index
        else:
            index = None
        if index is None:
            raise IllegalMove(
                f'{move!r} is not a card or "pass" (write rank then suit, e.g. 7C)',
                reason="not_a_move",
                details={"move": str(move)},
            )
        self.play_index(index)

    def play_indices(self, indices: Sequence[int]) -> None:
        """Play several move indices in order, as ``play_index`` would one by one.

        On an illegal move it raises with ``move_count`` equal to the position of the bad move
        in ``indices`` plus the moves played before; the moves before it stay played. Whole
        numbers from 0 to 36 go to the contract's fast replay loop, anything else move by move.
        """
        try:
            fast = not indices or (
                min(indices) >= 0 and max(indices) <= PASS_INDEX and only_ints(indices)
            )
        except TypeError:
            fast = False
        if fast:
            self._play_move_indices(tuple(indices))
        else:
            for index in indices:
                self.play_index(index)

    def _play_move_indices(self, indices: tuple[int, ...]) -> None:
        """``play_indices`` for a tuple of move indices, whole numbers from 0 to 36.

        The generic loop; each kind of contract replaces it with a faster one that has the
        same effect (the tests hold them together), since replaying records is this call.
        """
        play_index = self.play_index
        for index in indices:
            play_index(index)

    def _check_in_hand(self, seat: int, hand: int, index: int) -> None:
        """Raise the right ``IllegalMove`` for a move that failed the fast in-hand test."""
        if self.over:
            raise IllegalMove("the deal is already over", reason="deal_over")
        if index == PASS_INDEX:
            raise IllegalMove(
                f"seat {seat} cannot pass: passing is only for the layout game",
                reason="cannot_pass",
            )
        if not 0 <= index < PASS_INDEX:
            raise IllegalMove(
                f"{index!r} is not a move index (0-35 a card, 36 a pass)",
                reason="not_a_move",
                details={"move": repr(index)},
            )
        if not hand >> index & 1:
            code = CARDS[index].code
            raise IllegalMove(
                f"seat {seat} does not hold {code}", reason="not_held", details={"card": code}
            )

    def scores_so_far(self) -> tuple[int, ...]:
        """Penalties as they stand: final ones when over, else the running (undoubled) costs."""
        if self._penalties is not None:
            return tuple(self._penalties)
        return (0,) * self.players

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(
            Trick(leader, tuple(CARDS[i] for i in cards), winner)
            for leader, cards, winner in self._tricks
        )

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        k = len(self._trick)
        if not k:
            return ()
        seats = self._seats[-k:]
        return tuple(zip(seats, (CARDS[i] for i in self._trick), strict=True))

    @property
    def hundred_total(self) -> int:
        return self._total

    @property
    def rows(self) -> tuple[Row | None, ...]:
        """The four layout rows by suit (C, S, H, D); None where the Jack is not laid yet."""
        return tuple(
            None
            if self._low[s] < 0
            else Row(CARDS[s * 9 + self._low[s]], CARDS[s * 9 + self._high[s]])
            for s in range(4)
        )

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._tricks_won)

    def taken(self, seat: int) -> tuple[Card, ...]:
        """The cards in the tricks ``seat`` has taken."""
        return tuple(mask_to_cards(self._taken[seat]))

    # ----------------------------------------------------------------- views

    def view_for(self, seat: int | None) -> SeatView:
        """What ``seat`` may know; ``None`` gives the spectators' public view."""
        if seat is not None and not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} at a table of {self.players}")
        own = seat is not None
        on_turn = own and not self.over and self.turn == seat
        return SeatView(
            players=self.players,
            contract=self.contract,
            dealer=self.dealer,
            rules=self.rules,
            seat=seat,
            hand=self.hand(seat) if own else (),
            turn=None if self.over else self.turn,
            legal_moves=tuple(self.legal_moves()) if on_turn else (),
            hand_sizes=tuple(h.bit_count() for h in self._hands),
            history=self.history,
            current_trick=self.current_trick,
            tricks=self.tricks,
            tricks_won=self.tricks_won,
            scores_so_far=self.scores_so_far(),
            hundred_total=self._total,
            rows=self.rows,
            over=self.over,
            penalties=self.penalties,
        )

    def public_view(self) -> SeatView:
        return self.view_for(None)

    def __repr__(self) -> str:
        state = f"over {self.penalties}" if self.over else f"seat {self.turn} to move"
        return f"<Deal {self.players}p {self.contract.value} dealer {self.dealer}: {state}>"


# The families subclass ``Deal``, so they are imported once it exists.
from .hundred import HundredDeal  # noqa: E402
from .layout import LayoutDeal  # noqa: E402
from .tricks import TrickDeal  # noqa: E402

_CLASS_FOR: dict[Contract, type[Deal]] = {
    Contract.NO_TRICKS: TrickDeal,
    Contract.NO_HEARTS: TrickDeal,
    Contract.NO_JACKS: TrickDeal,
    Contract.NO_KING_OF_HEARTS: TrickDeal,
    Contract.HUNDRED: HundredDeal,
    Contract.ROSBIRATSCHKA: LayoutDeal,
}

__all__ = ["Deal", "Row", "SeatView", "Trick", "hand_masks", "PASS"]
