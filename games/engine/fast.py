"""The engine's hot loops, one section per contract family: replaying records, random play-outs.

Replaying a record (``Deal._play_move_indices``, the ``score`` command) and playing out at
random (``Deal.play_out_randomly``, bot rollouts) run millions of moves, so each family has
both loops here, written out with all state in local variables instead of a ``play_index``
call per move; they are kept apart (checking a given move, choosing one) because merging
them puts a branch on every card of both. The rules themselves are the families' ``play_index``
(``tricks.py``, ``hundred.py``, ``layout.py``), which these loops must match move for move:
the generic loops in ``Deal`` define the effect, and the tests hold each loop to them. A
move a replay loop cannot take quickly goes to ``play_index``, which raises the precise error.

The random loops pick "the k-th legal move for k = int(draw() * count)" exactly as
``Deal.play_out_randomly_step`` does, so a seed gives the same deal on every path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .cards import (
    ACE,
    HUNDRED_VALUES,
    JACK,
    JACK_MASK,
    KING_OF_HEARTS,
    NUM_CARDS,
    PACK_MASKS,
    PASS_INDEX,
    QUEEN,
    ROW_LOW_ENDS,
    SUIT_MASKS,
    TEN,
)
from .penalties import HUNDRED_CALLS, LAST_HOLDER
from .rules import NO_KING_ID

if TYPE_CHECKING:
    from .hundred import HundredDeal
    from .layout import LayoutDeal
    from .tricks import TrickDeal

KH_BIT = KING_OF_HEARTS.bit
LAST_CALL = HUNDRED_CALLS[-1][0]

NEXT_SEATS = {n: tuple((seat + 1) % n for seat in range(n)) for n in PACK_MASKS}
SEAT_ORDERS = {
    n: tuple(tuple((leader + k) % n for k in range(n)) for leader in range(n)) for n in PACK_MASKS
}
"""Per player count and leader, the seats of a trick in playing order."""
SEAT_CYCLES = {
    n: tuple(
        (tuple(range(n)) * (NUM_CARDS // n + 2))[start : start + NUM_CARDS] for start in range(n)
    )
    for n in PACK_MASKS
}
"""Per player count and first seat, the seats of consecutive moves when none is skipped."""
SUIT_MASK_OF = tuple(SUIT_MASKS[i // 9] for i in range(NUM_CARDS))


def _next_calls() -> tuple[int, ...]:
    """For each running total 0-120 of the Hundred, the line of the next call (past the last:
    one no total reaches)."""
    table: list[int] = []
    for line, _ in HUNDRED_CALLS:
        table += [line] * (line + 1 - len(table))
    return tuple(table + [1 << 30] * (121 - len(table)))


HUNDRED_VALUE_OF = tuple(HUNDRED_VALUES[i % 9] for i in range(NUM_CARDS))
NEXT_CALL = _next_calls()
"""By running total of the Hundred (the pack holds 120), the line the next call is at."""


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
            flips.append((1 << (suit * 9 + TEN)) | (1 << (suit * 9 + QUEEN)))
        elif rank < JACK:
            flips.append(bit | (bit >> 1 if rank > ROW_LOW_ENDS[players][suit] else 0))
        else:
            flips.append(bit | (bit << 1 if rank < ACE else 0))
    return tuple(flips)


LAYOUT_FLIPS = {n: _layout_flips(n) for n in PACK_MASKS}


# ------------------------------------------------------------------ trick contracts (1-4)


def replay_tricks(deal: TrickDeal, indices: tuple[int, ...]) -> None:
    """``Deal._play_move_indices`` for trick contracts, a whole trick at a time.

    Each complete trick is checked card by card in local variables and then recorded;
    the state is written back once at the end. A trick in progress, a tail shorter than a
    trick, and a trick that fails a check go through ``play_index`` move by move (the
    failed trick's cards are first put back into the hands), which raises the precise
    error at the right move, so the effect is exactly the generic loop's.
    """
    play_index = deal.play_index
    position = 0
    total = len(indices)
    while position < total and deal._trick and not deal.over:
        play_index(indices[position])
        position += 1
    if deal.over or position >= total:
        for index in indices[position:]:
            play_index(index)
        return
    players = deal.players
    hands = deal._hands
    weights = deal._weights
    taken = deal._taken
    won = deal._tricks_won
    points = deal._trick_points
    orders = SEAT_ORDERS[players]
    record_trick = deal._tricks.append
    record_seats = deal._seats.extend
    suit_mask_of = SUIT_MASK_OF
    next_seat = NEXT_SEATS[players]
    last = len(weights) - 1
    no_king = deal._cid == NO_KING_ID
    number = len(deal._tricks)
    leader = deal.turn
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
            if number == last or (no_king and mask & KH_BIT):
                over = True
                break
            number += 1
            continue
        # Put the failed trick's cards back; play_index then finds the bad one.
        order = orders[leader]
        for k in range(mask.bit_count()):
            hands[order[k]] |= 1 << chunk[k]
        break
    deal._moves.extend(indices[first:position])
    deal.turn = leader
    if over:
        deal.over = True  # as TrickDeal._end, inlined: this runs once per deal
        deal._penalties = deal._penalties_from_tricks(final=True)
    for index in indices[position:]:
        play_index(index)


def play_out_tricks(deal: TrickDeal, draw: Callable[[], float]) -> None:
    """``Deal.play_out_randomly`` for trick contracts: the bots' rollout hot loop.

    A trick in progress is finished move by move, then whole tricks are played with every
    piece of state in local variables and written back once.
    """
    while deal._trick and not deal.over:
        deal.play_out_randomly_step(draw)
    if deal.over:
        return
    hands = deal._hands
    moves = deal._moves
    log_move = moves.append
    log_seat = deal._seats.append
    record_trick = deal._tricks.append
    players = deal.players
    followers = range(players - 1)
    next_seat = NEXT_SEATS[players]
    suit_mask_of = SUIT_MASK_OF
    weights = deal._weights
    taken = deal._taken
    won = deal._tricks_won
    points = deal._trick_points
    last = len(weights) - 1
    no_king = deal._cid == NO_KING_ID
    number = len(deal._tricks)
    seat = deal.turn
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
        if number == last or (no_king and cards & KH_BIT):
            break
        number += 1
    deal.turn = winner
    deal.over = True  # as TrickDeal._end, inlined
    deal._penalties = deal._penalties_from_tricks(final=True)


# ------------------------------------------------------------------ the Hundred (5)


def replay_hundred(deal: HundredDeal, indices: tuple[int, ...]) -> None:
    """``Deal._play_move_indices`` for the Hundred, in local variables.

    The deal is over exactly when the total has passed 100, so one comparison guards the
    end; a call (and the end) is charged by ``HundredDeal._call`` in the rare branch. A move that fails the quick checks is handed to ``play_index`` after the state is
    written back, which raises the precise error (or plays it, and the rest follows move
    by move): the effect is always the generic loop's.
    """
    hands = deal._hands
    players = deal.players
    next_seat = NEXT_SEATS[players]
    values = HUNDRED_VALUE_OF
    last_call = LAST_CALL
    cards_before = sum(hand.bit_count() for hand in hands)
    total = deal._total
    line = NEXT_CALL[total]
    seat = start = deal.turn
    for index in indices:
        if total > last_call:
            break
        hand = hands[seat]
        bit = 1 << index
        if not hand & bit:
            break
        hands[seat] = hand ^ bit
        total += values[index]
        if total > line:
            deal._call(seat, total - values[index], total)
            line = NEXT_CALL[total]
        seat = next_seat[seat]
    count = cards_before - sum(hand.bit_count() for hand in hands)
    if count:
        deal._moves.extend(indices[:count])
        deal._seats.extend(SEAT_CYCLES[players][start][:count])
        deal._total = total
        deal.turn = seat
    for index in indices[count:]:
        deal.play_index(index)


def play_out_hundred(deal: HundredDeal, draw: Callable[[], float]) -> None:
    """``Deal.play_out_randomly`` for the Hundred; calls as in ``replay_hundred``."""
    hands = deal._hands
    log_move = deal._moves.append
    log_seat = deal._seats.append
    next_seat = NEXT_SEATS[deal.players]
    values = HUNDRED_VALUE_OF
    last_call = LAST_CALL
    total = deal._total
    line = NEXT_CALL[total]
    seat = deal.turn
    while total <= last_call:
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
            deal._call(seat, total - values[index], total)
            line = NEXT_CALL[total]
        seat = next_seat[seat]
    deal._total = total
    deal.turn = seat


# ------------------------------------------------------------------ the layout game (6)


def replay_layout(deal: LayoutDeal, indices: tuple[int, ...]) -> None:
    """``Deal._play_move_indices`` for the layout game, in local variables.

    A legal card costs one XOR of ``LAYOUT_FLIPS``; the rows' ends are read off the laid
    cards once at the end. A move that fails the quick checks goes to ``play_index`` after the
    write-back, which raises the precise error (or plays it, and the rest follows move by
    move), so the effect is always the generic loop's.
    """
    if deal.over:
        for index in indices:
            deal.play_index(index)
        return
    hands = deal._hands
    players = deal.players
    flip = LAYOUT_FLIPS[players]
    next_seat = NEXT_SEATS[players]
    free = deal._free
    ext = deal._ext_mask
    holding = deal._holding
    seat = deal.turn
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
        deal._moves.extend(indices[:count])
        deal._seats.extend(seats)
        deal._ext_mask = ext
        deal._holding = holding
        deal.turn = seat
        deal._set_rows_from_hands()
        if over:
            deal.over = True  # as LayoutDeal._end, inlined
            deal._penalties = [LAST_HOLDER if hand else 0 for hand in hands]
    for index in indices[count:]:
        deal.play_index(index)


def play_out_layout(deal: LayoutDeal, draw: Callable[[], float]) -> None:
    """``Deal.play_out_randomly`` for the layout game, as ``replay_layout`` keeps its state."""
    if deal.over:
        return
    hands = deal._hands
    moves = deal._moves
    log_move = moves.append
    log_seat = deal._seats.append
    players = deal.players
    flip = LAYOUT_FLIPS[players]
    next_seat = NEXT_SEATS[players]
    free = deal._free
    ext = deal._ext_mask
    holding = deal._holding
    seat = deal.turn
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
    deal._ext_mask = ext
    deal._holding = holding
    deal.turn = seat
    deal._set_rows_from_hands()
    deal.over = True  # as LayoutDeal._end, inlined
    deal._penalties = [LAST_HOLDER if hand else 0 for hand in hands]
