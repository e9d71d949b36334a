"""One deal in progress: whose turn, legal moves, playing a move, views and penalties.

The state keeps hands and taken cards as integer bit masks over card indices (see
``cards.py``); moves are card indices internally (``PASS_INDEX`` for a pass) and ``Card``
values at the public surface. ``play()`` checks everything and changes nothing when it
raises, so a rejected move never corrupts a table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import (
    ACE,
    CARD_BY_CODE,
    CARDS,
    HAND_SIZES,
    HEART_MASK,
    HUNDRED_VALUES,
    JACK,
    JACK_MASK,
    KING_OF_HEARTS,
    MOVE_INDEX_BY_CODE,
    MOVES_BY_INDEX,
    NUM_CARDS,
    PACK_MASKS,
    PASS,
    PASS_INDEX,
    QUEEN,
    SUIT_MASKS,
    SUIT_NAMES_FRENCH,
    TEN,
    Card,
    Move,
    Pass,
    lowest_rank_in_pack,
    mask_to_cards,
)
from .errors import IllegalMove, MalformedRecord
from .rules import DEFAULT_RULES, LAYOUT_FREE, Contract, HouseRules

_NO_TRICKS, _NO_HEARTS, _NO_JACKS, _NO_KING, _HUNDRED, _LAYOUT = range(6)
_CONTRACT_IDS = {c: i for i, c in enumerate(Contract)}
_PASS_BIT = 1 << PASS_INDEX
_KH_BIT = KING_OF_HEARTS.bit
_AH_KH_BITS = CARD_BY_CODE["AH"].bit | _KH_BIT
_SLAM = -8


def _popcount(mask: int) -> int:
    return mask.bit_count()


def _code_list(mask: int) -> list[str]:
    return [c.code for c in mask_to_cards(mask)]


def _must_follow(seat: int, suit: int, holding: int) -> IllegalMove:
    """The refusal of a card that does not follow the led suit while ``holding`` does."""
    cards = _code_list(holding)
    return IllegalMove(
        f"seat {seat} must follow {SUIT_NAMES_FRENCH[suit]}: it holds {', '.join(cards)}",
        reason="must_follow",
        details={"suit": suit, "cards": cards},
    )


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
    The instance is of a subclass per kind of contract (tricks, Hundred, layout), which keeps
    the hot paths free of contract dispatch. Each subclass defines the two fast methods
    ``legal_mask()`` (the legal moves as a bit mask over move indices, bit 36 a pass, 0 once
    over) and ``play_index(index)`` (``play()`` for a move index, used by simulations).
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
        "_row_min",
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
        self._cid = _CONTRACT_IDS[contract]
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
        self._weights = _TRICK_WEIGHTS[players]
        self._total = 0
        self._scored = [0] * players
        self._low = [-1, -1, -1, -1]
        self._high = [-1, -1, -1, -1]
        self._row_min = _ROW_MINS[players]
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
                min(indices) >= 0 and max(indices) <= PASS_INDEX and _only_ints(indices)
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


class _TrickDeal(Deal):
    """Contracts 1 to 4: follow suit, no trumps, the highest card of the led suit wins."""

    __slots__ = ()

    def legal_mask(self) -> int:
        if self.over:
            return 0
        hand = self._hands[self.turn]
        if self._trick and hand & self._led_mask:
            return hand & self._led_mask
        return hand

    def play_index(self, index: int) -> None:
        seat = self.turn
        hands = self._hands
        hand = hands[seat]
        bit = 1 << index if index >= 0 else 0
        if not hand & bit or index == PASS_INDEX or self.over:
            self._check_in_hand(seat, hand, index)
        trick = self._trick
        if trick:
            led = self._led_mask
            if bit & led:
                if index > self._best:
                    self._best = index
                    self._best_seat = seat
            elif hand & led:
                raise _must_follow(seat, SUIT_MASKS.index(led), hand & led)
        else:
            self._led_mask = SUIT_MASKS[index // 9]
            self._best = index
            self._best_seat = seat
        hands[seat] = hand ^ bit
        self._moves.append(index)
        self._seats.append(seat)
        trick.append(index)
        if len(trick) == self.players:
            self._finish_trick()
        else:
            self.turn = seat + 1 if seat + 1 < self.players else 0

    def _play_move_indices(self, indices: tuple[int, ...]) -> None:
        """``Deal._play_move_indices`` a whole trick at a time: replaying records is this loop.

        Each complete trick is checked card by card in local variables and then recorded;
        the state is written back once at the end. A trick in progress, a tail shorter than a
        trick, and a trick that fails a check go through ``play_index`` move by move (the
        failed trick's cards are first put back into the hands), which raises the precise
        error at the right move, so the effect is exactly the generic loop's.
        """
        play_index = self.play_index
        position = 0
        total = len(indices)
        while position < total and self._trick and not self.over:
            play_index(indices[position])
            position += 1
        if self.over or position >= total:
            for index in indices[position:]:
                play_index(index)
            return
        players = self.players
        hands = self._hands
        weights = self._weights
        taken = self._taken
        won = self._tricks_won
        points = self._trick_points
        orders = _SEAT_ORDERS[players]
        record_trick = self._tricks.append
        record_seats = self._seats.extend
        suit_mask_of = _SUIT_MASK_OF
        next_seat = _NEXT_SEATS[players]
        last = len(weights) - 1
        no_king = self._cid == _NO_KING
        number = len(self._tricks)
        leader = self.turn
        first = position
        over = False
        while position + players <= total:
            chunk = indices[position : position + players]
            index = chunk[0]
            hand = hands[leader]
            bit = 1 << index
            if not hand & bit:
                break
            hands[leader] = hand ^ bit
            led = suit_mask_of[index]
            best = index
            winner = leader
            mask = bit
            seat = next_seat[leader]
            for index in chunk[1:]:
                hand = hands[seat]
                bit = 1 << index
                if bit & led:
                    if not hand & bit:
                        break
                    if index > best:
                        best = index
                        winner = seat
                elif not hand & bit or hand & led:
                    break
                hands[seat] = hand ^ bit
                mask |= bit
                seat = next_seat[seat]
            else:
                record_trick((leader, chunk, winner))
                record_seats(orders[leader])
                taken[winner] |= mask
                won[winner] += 1
                points[winner] += weights[number]
                position += players
                leader = winner
                if number == last or (no_king and mask & _KH_BIT):
                    over = True
                    break
                number += 1
                continue
            # Put the failed trick's cards back; play_index then finds the bad one.
            order = orders[leader]
            for k in range(mask.bit_count()):
                hands[order[k]] |= 1 << chunk[k]
            break
        self._moves.extend(indices[first:position])
        self.turn = leader
        if over:
            self.over = True
            self._penalties = self._penalties_from_tricks(final=True)
        for index in indices[position:]:
            play_index(index)

    def play_out_randomly(self, draw: Callable[[], float]) -> None:
        """Finish the deal with uniformly random legal moves; ``draw`` is ``rng.random``.

        The same as calling ``play_index`` with a random legal move until the end (the tests
        hold the two paths together), inlined because it is the bots' rollout hot loop: a
        trick in progress is finished move by move, then whole tricks are played with every
        piece of state in local variables and written back once.
        """
        while self._trick and not self.over:
            Deal.play_out_randomly_step(self, draw)
        if self.over:
            return
        hands = self._hands
        moves = self._moves
        log_move = moves.append
        log_seat = self._seats.append
        record_trick = self._tricks.append
        players = self.players
        followers = range(players - 1)
        next_seat = _NEXT_SEATS[players]
        suit_mask_of = _SUIT_MASK_OF
        weights = self._weights
        taken = self._taken
        won = self._tricks_won
        points = self._trick_points
        last = len(weights) - 1
        no_king = self._cid == _NO_KING
        number = len(self._tricks)
        seat = self.turn
        while True:
            leader = seat
            hand = hands[seat]
            mask = hand
            count = mask.bit_count()
            if count > 1:
                k = (draw() * count).__trunc__()  # int(), cheaper for a float
                while k:
                    mask &= mask - 1
                    k -= 1
            bit = mask & -mask
            best = bit.bit_length() - 1
            hands[seat] = hand ^ bit
            log_move(best)
            log_seat(seat)
            led = suit_mask_of[best]
            cards = bit
            winner = seat
            seat = next_seat[seat]
            for _ in followers:
                hand = hands[seat]
                mask = hand & led or hand
                count = mask.bit_count()
                if count > 1:
                    k = (draw() * count).__trunc__()  # int(), cheaper for a float
                    while k:
                        mask &= mask - 1
                        k -= 1
                bit = mask & -mask
                index = bit.bit_length() - 1
                if bit & led and index > best:
                    best = index
                    winner = seat
                hands[seat] = hand ^ bit
                log_move(index)
                log_seat(seat)
                cards |= bit
                seat = next_seat[seat]
            record_trick((leader, tuple(moves[-players:]), winner))
            taken[winner] |= cards
            won[winner] += 1
            points[winner] += weights[number]
            seat = winner
            if number == last or (no_king and cards & _KH_BIT):
                break
            number += 1
        self.turn = winner
        self.over = True
        self._penalties = self._penalties_from_tricks(final=True)

    def _finish_trick(self) -> None:
        winner = self._best_seat
        trick = self._trick
        mask = 0
        for i in trick:
            mask |= 1 << i
        number = len(self._tricks)
        self._tricks.append((self._seats[-len(trick)], tuple(trick), winner))
        self._taken[winner] |= mask
        self._tricks_won[winner] += 1
        self._trick_points[winner] += self._weights[number]
        self._trick = []
        self._led_mask = 0
        self.turn = winner
        if number == len(self._weights) - 1 or (self._cid == _NO_KING and mask & _KH_BIT):
            self.over = True
            self._penalties = self._penalties_from_tricks(final=True)

    def _penalties_from_tricks(self, final: bool) -> list[int]:
        """Penalties from the tricks taken so far; ``final`` applies slams and doubling."""
        n = self.players
        cid = self._cid
        taken = self._taken
        if cid == _NO_KING:
            return [8 if taken[s] & _KH_BIT else 0 for s in range(n)]
        if cid == _NO_TRICKS:
            base = list(self._trick_points)
            counts = self._tricks_won
            if final and max(counts) == len(self._weights):
                return [_SLAM if c else 0 for c in counts]
            nothing = [c == 0 for c in counts]
        elif cid == _NO_HEARTS:
            hearts = PACK_MASKS[n] & HEART_MASK
            if final:
                for s in range(n):
                    if taken[s] & hearts == hearts:
                        return [_SLAM if t == s else 0 for t in range(n)]
            if n == 3:
                base = [_popcount(t & HEART_MASK) + _popcount(t & _AH_KH_BITS) for t in taken]
            else:
                base = [_popcount(t & HEART_MASK) for t in taken]
            nothing = [not t & HEART_MASK for t in taken]
        else:
            jacks = [_popcount(t & JACK_MASK) for t in taken]
            if final and max(jacks) == 4:
                return [_SLAM if j == 4 else 0 for j in jacks]
            base = [2 * j for j in jacks]
            nothing = [j == 0 for j in jacks]
        if final and self.rules.doubling and any(nothing):
            return [2 * b for b in base]
        return base

    def scores_so_far(self) -> tuple[int, ...]:
        if self._penalties is not None:
            return tuple(self._penalties)
        return tuple(self._penalties_from_tricks(final=False))


class _HundredDeal(Deal):
    """Contract 5: lay any card in turn; crossing 25, 50 and 100 costs 1, 2 and 5."""

    __slots__ = ()

    def legal_mask(self) -> int:
        return 0 if self.over else self._hands[self.turn]

    def play_index(self, index: int) -> None:
        seat = self.turn
        hand = self._hands[seat]
        if self.over or not 0 <= index < PASS_INDEX or not hand >> index & 1:
            self._check_in_hand(seat, hand, index)
        before = self._total
        after = before + HUNDRED_VALUES[index % 9]
        self._hands[seat] = hand ^ (1 << index)
        self._moves.append(index)
        self._seats.append(seat)
        self._total = after
        if before <= 25 < after:
            self._scored[seat] += 1
        if before <= 50 < after:
            self._scored[seat] += 2
        if before <= 100 < after:
            self._scored[seat] += 5
            self.over = True
            self._penalties = list(self._scored)
        self.turn = (seat + 1) % self.players

    def _play_move_indices(self, indices: tuple[int, ...]) -> None:
        """``Deal._play_move_indices`` in local variables: replaying a record of the Hundred.

        The deal is over exactly when the total has passed 100, so one comparison guards the
        end. A move that fails the quick checks is handed to ``play_index`` after the state is
        written back, which raises the precise error (or plays it, and the rest follows move
        by move): the effect is always the generic loop's.
        """
        hands = self._hands
        players = self.players
        next_seat = _NEXT_SEATS[players]
        values = _HUNDRED_VALUE_OF
        cards_before = sum(hand.bit_count() for hand in hands)
        total = self._total
        line = _next_hundred_line(total)
        seat = start = self.turn
        for index in indices:
            if total > 100:
                break
            hand = hands[seat]
            bit = 1 << index
            if not hand & bit:
                break
            hands[seat] = hand ^ bit
            total += values[index]
            if total > line:
                self._score_hundred(seat, total - values[index], total)
                line = _next_hundred_line(total)
            seat = next_seat[seat]
        count = cards_before - sum(hand.bit_count() for hand in hands)
        if count:
            self._moves.extend(indices[:count])
            self._seats.extend(_SEAT_CYCLES[players][start][:count])
            self._total = total
            self.turn = seat
            if total > 100 and not self.over:
                self.over = True
                self._penalties = list(self._scored)
        for index in indices[count:]:
            self.play_index(index)

    def _score_hundred(self, seat: int, before: int, after: int) -> None:
        """Charge ``seat`` for each of 25, 50 and 100 that its card took the total past."""
        scored = self._scored
        if before <= 25 < after:
            scored[seat] += 1
        if before <= 50 < after:
            scored[seat] += 2
        if before <= 100 < after:
            scored[seat] += 5

    def play_out_randomly(self, draw: Callable[[], float]) -> None:
        """``Deal.play_out_randomly`` inlined for the Hundred (the tests hold the two together).

        The deal is over exactly when the total passes 100; the crossings of 25, 50 and 100
        are scored in the rare branch where the total passes the next line.
        """
        hands = self._hands
        log_move = self._moves.append
        log_seat = self._seats.append
        next_seat = _NEXT_SEATS[self.players]
        values = _HUNDRED_VALUE_OF
        total = self._total
        line = _next_hundred_line(total)
        seat = self.turn
        while total <= 100:
            hand = hands[seat]
            mask = hand
            count = mask.bit_count()
            if count > 1:
                k = (draw() * count).__trunc__()  # int(), cheaper for a float
                while k:
                    mask &= mask - 1
                    k -= 1
            bit = mask & -mask
            index = bit.bit_length() - 1
            hands[seat] = hand ^ bit
            log_move(index)
            log_seat(seat)
            total += values[index]
            if total > line:
                self._score_hundred(seat, total - values[index], total)
                line = _next_hundred_line(total)
            seat = next_seat[seat]
        self._total = total
        self.turn = seat
        if not self.over:
            self.over = True
            self._penalties = list(self._scored)

    def scores_so_far(self) -> tuple[int, ...]:
        return tuple(self._scored)


class _LayoutDeal(Deal):
    """Contract 6: build the four suit rows from the Jacks; the last to hold cards pays 8."""

    __slots__ = ()

    def legal_mask(self) -> int:
        if self.over:
            return 0
        hand = self._hands[self.turn]
        extend = hand & self._ext_mask
        # "free" lets a Jack compete with extending cards; by default extending comes first.
        playable = (extend | (hand & JACK_MASK)) if self._free else (extend or (hand & JACK_MASK))
        return playable or _PASS_BIT

    def play_index(self, index: int) -> None:
        seat = self.turn
        hand = self._hands[seat]
        if self.over:
            raise IllegalMove("the deal is already over", reason="deal_over")
        if index == PASS_INDEX:
            playable = hand & (self._ext_mask | JACK_MASK)
            if playable:
                cards = _code_list(playable)
                raise IllegalMove(
                    f"seat {seat} cannot pass while it can lay a card ({', '.join(cards)})",
                    reason="pass_while_able",
                    details={"cards": cards},
                )
        else:
            if index > PASS_INDEX or index < 0 or not hand >> index & 1:
                self._check_in_hand(seat, hand, index)
            bit = 1 << index
            suit, rank = divmod(index, 9)
            if bit & self._ext_mask:
                if rank < JACK:
                    self._low[suit] = rank
                    if rank > self._row_min[suit]:
                        self._ext_mask |= bit >> 1
                else:
                    self._high[suit] = rank
                    if rank < ACE:
                        self._ext_mask |= bit << 1
                self._ext_mask ^= bit
            elif rank == JACK:
                if not self._free and hand & self._ext_mask:
                    cards = _code_list(hand & self._ext_mask)
                    raise IllegalMove(
                        f"seat {seat} must extend a row before starting a new one "
                        f"(it can lay {', '.join(cards)})",
                        reason="must_extend",
                        details={"cards": cards},
                    )
                self._low[suit] = JACK
                self._high[suit] = JACK
                base = suit * 9
                self._ext_mask |= (1 << (base + TEN)) | (1 << (base + QUEEN))
            else:
                code = CARDS[index].code
                raise IllegalMove(
                    f"{code} neither extends a row nor starts one",
                    reason="no_row",
                    details={"card": code},
                )
            hand ^= bit
            self._hands[seat] = hand
            if not hand:
                self._holding -= 1
        self._moves.append(index)
        self._seats.append(seat)
        hands = self._hands
        n = self.players
        if self._holding == 1:
            self.over = True
            self._penalties = [8 if hands[s] else 0 for s in range(n)]
            return
        nxt = (seat + 1) % n
        while not hands[nxt]:
            nxt = (nxt + 1) % n
        self.turn = nxt

    def _play_move_indices(self, indices: tuple[int, ...]) -> None:
        """``Deal._play_move_indices`` in local variables: replaying a record of the layout game.

        One table per player count gives, for each card, the change to the set of cards that
        extend a row (the card itself out, its outer neighbour in; a Jack brings its Ten and
        Queen), so a legal card costs one XOR; the rows' ends are read off the laid cards once
        at the end. A move that fails the quick checks goes to ``play_index`` after the
        write-back, which raises the precise error (or plays it, and the rest follows move by
        move), so the effect is always the generic loop's.
        """
        if self.over:
            for index in indices:
                self.play_index(index)
            return
        hands = self._hands
        players = self.players
        flip = _LAYOUT_FLIPS[players]
        next_seat = _NEXT_SEATS[players]
        free = self._free
        ext = self._ext_mask
        holding = self._holding
        seat = self.turn
        seats: list[int] = []
        log_seat = seats.append
        over = False
        for index in indices:
            hand = hands[seat]
            if index == PASS_INDEX:
                if hand & (ext | JACK_MASK):
                    break
            else:
                bit = 1 << index
                if not hand & bit or (
                    not bit & ext and (not bit & JACK_MASK or (hand & ext and not free))
                ):
                    break
                ext ^= flip[index]
                hand ^= bit
                hands[seat] = hand
                if not hand:
                    holding -= 1
                    if holding == 1:
                        log_seat(seat)
                        over = True
                        break
            log_seat(seat)
            seat = next_seat[seat]
            while not hands[seat]:
                seat = next_seat[seat]
        count = len(seats)
        if count:
            self._moves.extend(indices[:count])
            self._seats.extend(seats)
            self._ext_mask = ext
            self._holding = holding
            self.turn = seat
            self._set_rows_from_hands()
            if over:
                self.over = True
                self._penalties = [8 if hand else 0 for hand in hands]
        for index in indices[count:]:
            self.play_index(index)

    def play_out_randomly(self, draw: Callable[[], float]) -> None:
        """``Deal.play_out_randomly`` inlined for the layout game (the tests hold the two
        together): the extend mask changes by one XOR per card (``_LAYOUT_FLIPS``), the rows'
        ends are read off the laid cards at the end, passes and empty hands in locals."""
        if self.over:
            return
        hands = self._hands
        moves = self._moves
        log_move = moves.append
        log_seat = self._seats.append
        players = self.players
        flip = _LAYOUT_FLIPS[players]
        next_seat = _NEXT_SEATS[players]
        free = self._free
        ext = self._ext_mask
        holding = self._holding
        seat = self.turn
        while True:
            hand = hands[seat]
            extend = hand & ext
            jacks = hand & JACK_MASK
            mask = (extend | jacks) if free else (extend or jacks)
            if mask:
                count = mask.bit_count()
                if count > 1:
                    k = (draw() * count).__trunc__()  # int(), cheaper for a float
                    while k:
                        mask &= mask - 1
                        k -= 1
                bit = mask & -mask
                index = bit.bit_length() - 1
                ext ^= flip[index]
                hand ^= bit
                hands[seat] = hand
                log_move(index)
                log_seat(seat)
                if not hand:
                    holding -= 1
                    if holding == 1:
                        break
            else:
                log_move(PASS_INDEX)
                log_seat(seat)
            seat = next_seat[seat]
            while not hands[seat]:
                seat = next_seat[seat]
        self._ext_mask = ext
        self._holding = holding
        self.turn = seat
        self._set_rows_from_hands()
        self.over = True
        self._penalties = [8 if hand else 0 for hand in hands]

    def _set_rows_from_hands(self) -> None:
        """Each started row's ends from the laid cards: they run unbroken through the Jack."""
        laid = PACK_MASKS[self.players]
        for hand in self._hands:
            laid &= ~hand
        low = self._low
        high = self._high
        for suit in range(4):
            row = laid & SUIT_MASKS[suit]
            if row:
                low[suit] = (row & -row).bit_length() - 1 - 9 * suit
                high[suit] = row.bit_length() - 1 - 9 * suit


_CLASS_FOR: dict[Contract, type[Deal]] = {
    Contract.NO_TRICKS: _TrickDeal,
    Contract.NO_HEARTS: _TrickDeal,
    Contract.NO_JACKS: _TrickDeal,
    Contract.NO_KING_OF_HEARTS: _TrickDeal,
    Contract.HUNDRED: _HundredDeal,
    Contract.ROSBIRATSCHKA: _LayoutDeal,
}


def _trick_weights(players: int) -> tuple[int, ...]:
    """What each trick costs in ``no_tricks``: 5 players pay 2 for the last, 6 for first and last."""
    weights = [1] * HAND_SIZES[players]
    if players == 5:
        weights[-1] = 2
    elif players == 6:
        weights[0] = weights[-1] = 2
    return tuple(weights)


_TRICK_WEIGHTS = {n: _trick_weights(n) for n in PACK_MASKS}
_SEAT_ORDERS = {
    n: tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in PACK_MASKS
}
_ROW_MINS = {n: tuple(lowest_rank_in_pack(n, s) for s in range(4)) for n in PACK_MASKS}
_SEAT_CYCLES = {
    n: tuple(tuple((start + k) % n for k in range(NUM_CARDS)) for start in range(n))
    for n in PACK_MASKS
}
"""For each player count and first seat, the seats of consecutive moves when none is skipped."""
_HUNDRED_VALUE_OF = tuple(HUNDRED_VALUES[i % 9] for i in range(NUM_CARDS))


def _only_ints(values: Sequence[object]) -> bool:
    """True when every value is exactly an ``int`` (not a bool, a float or a string)."""
    return set(map(type, values)) == {int}


def _next_hundred_line(total: int) -> int:
    """The next of 25, 50 and 100 that ``total`` has not passed (past 100: never again)."""
    for line in (25, 50, 100):
        if total <= line:
            return line
    return 1 << 30


_NEXT_SEATS = {n: tuple((seat + 1) % n for seat in range(n)) for n in PACK_MASKS}


def _layout_flips(players: int) -> tuple[int, ...]:
    """Per card, what laying it does to the mask of cards that extend a row (XOR it in).

    A card that extends a row leaves the mask and lets its outer neighbour in (none past the
    Ace or the lowest card of the pack); a Jack lets in its Ten and Queen.
    """
    flips = []
    for index in range(NUM_CARDS):
        suit, rank = divmod(index, 9)
        bit = 1 << index
        if rank == JACK:
            flips.append(_ROW_STARTS[suit])
        elif rank < JACK:
            flips.append(bit | (bit >> 1 if rank > _ROW_MINS[players][suit] else 0))
        else:
            flips.append(bit | (bit << 1 if rank < ACE else 0))
    return tuple(flips)


_SUIT_OF = tuple(i // 9 for i in range(NUM_CARDS))
_RANK_OF = tuple(i % 9 for i in range(NUM_CARDS))
_SUIT_MASK_OF = tuple(SUIT_MASKS[i // 9] for i in range(NUM_CARDS))
_ROW_STARTS = tuple((1 << (s * 9 + TEN)) | (1 << (s * 9 + QUEEN)) for s in range(4))
"""The Ten and the Queen that a newly laid Jack makes playable, per suit."""
_LAYOUT_FLIPS = {n: _layout_flips(n) for n in PACK_MASKS}


_BIT_BY_CODE = {c.code: c.bit for c in CARDS}


def hand_masks(players: int, hands: Sequence[Iterable[Card | str]]) -> list[int]:
    """Validate dealt hands against the pack for ``players`` and return them as bit masks.

    Raises ``MalformedRecord`` naming the first problem found (wrong number of hands,
    unknown, duplicated, missing or foreign cards, uneven hands). Well-formed hands of card
    codes take a fast path; anything else goes through the careful one that names the problem.
    """
    if not isinstance(hands, (list, tuple)) or len(hands) != players:
        raise MalformedRecord(f"hands must list one hand for each of the {players} seats")
    size = HAND_SIZES[players]
    bit_of = _BIT_BY_CODE.__getitem__
    masks = []
    seen = 0
    try:
        for hand in hands:
            if type(hand) is not list or len(hand) != size:
                break
            # A sum of powers of two has as many bits as terms only when they are distinct,
            # so the bit count below also catches a card listed twice.
            mask = sum(map(bit_of, hand))
            if mask.bit_count() != size or mask & seen:
                break
            seen |= mask
            masks.append(mask)
        else:
            if seen == PACK_MASKS[players]:
                return masks
    except (KeyError, TypeError):
        pass
    return _hand_masks_checked(players, hands)


def _hand_masks_checked(players: int, hands: Sequence[Iterable[Card | str]]) -> list[int]:
    """``hand_masks`` for hands that failed the fast path: find and name the first problem.

    A hand of known codes that fits is taken whole; only a hand that does not goes card by
    card, so the error is the first one in seat and card order.
    """
    size = HAND_SIZES[players]
    pack = PACK_MASKS[players]
    bit_of = _BIT_BY_CODE.__getitem__
    masks = []
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)):
            raise MalformedRecord(f"the hand of seat {seat} must be a list of cards")
        try:
            mask = sum(map(bit_of, hand))
            fits = mask.bit_count() == len(hand) and not mask & ~pack and not mask & seen
        except (KeyError, TypeError):  # Card values, or something that is not a card code
            fits = False
        if not fits:
            mask = _hand_mask_card_by_card(players, seat, hand, seen)
        seen |= mask
        masks.append(mask)
    if seen != pack:
        missing = mask_to_cards(pack & ~seen)
        raise MalformedRecord(f"the hands lack {', '.join(c.code for c in missing)}")
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise MalformedRecord(
                f"seat {seat} holds {len(hand)} cards; each of {players} players gets {size}"
            )
    return masks


def _hand_mask_card_by_card(players: int, seat: int, hand: Iterable[Card | str], seen: int) -> int:
    """One seat's hand as a mask, raising at its first card that is unknown, foreign or seen."""
    pack = PACK_MASKS[players]
    mask = 0
    for item in hand:
        if isinstance(item, Card):
            card: Card | None = item
        elif isinstance(item, str):
            card = CARD_BY_CODE.get(item)
        else:
            card = None
        if card is None:
            raise MalformedRecord(f"{item!r} in the hand of seat {seat} is not a card")
        if not card.bit & pack:
            raise MalformedRecord(f"{card.code} is not in the pack for {players} players")
        if card.bit & (seen | mask):
            raise MalformedRecord(f"{card.code} is dealt twice")
        mask |= card.bit
    return mask


__all__ = ["Deal", "Row", "SeatView", "Trick", "hand_masks", "PASS"]
