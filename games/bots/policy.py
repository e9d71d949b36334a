"""The heuristic card play as plain integer functions over bit masks.

Both the heuristic bot (deciding from a ``SeatView``) and the strong bot's rollouts (thousands
of simulated deals per decision) call these functions, so they take only ints and a short
list and never build views or card objects. Every function sees what one seat may know: its
own hand, the legal moves and public facts (the trick on the table, the cards still unplayed,
the Hundred total, the layout rows). Card index = suit * 9 + rank (see ``games.engine.cards``).
"""

from __future__ import annotations

from typing import Final

from games.engine.cards import (
    ACE,
    CARD_BY_CODE,
    HEART_MASK,
    HUNDRED_VALUES,
    JACK,
    JACK_MASK,
    PACK_MASKS,
    PASS_INDEX,
    SUIT_MASKS,
    lowest_rank_in_pack,
)

NO_TRICKS, NO_HEARTS, NO_JACKS, NO_KING, HUNDRED, LAYOUT = range(6)
"""Contract ids in Partie order (the position of the contract in ``CONTRACT_ORDER``)."""

KH_BIT: Final = CARD_BY_CODE["KH"].bit
AH_BIT: Final = CARD_BY_CODE["AH"].bit
PASS_BIT: Final = 1 << PASS_INDEX
THRESHOLDS: Final = (25, 50, 100)

# BELOW[i]: the cards of i's suit ranked lower than i; ABOVE[i]: ranked higher (shared with
# the reading of the others' play, ``reading``).
BELOW: Final = tuple(SUIT_MASKS[i // 9] & ((1 << i) - 1) for i in range(36))
ABOVE: Final = tuple(SUIT_MASKS[i // 9] & ~((1 << (i + 1)) - 1) for i in range(36))


def bits(mask: int) -> list[int]:
    """The set bit positions of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> int:
    return mask.bit_length() - 1


def card_costs(cid: int, players: int) -> tuple[int, ...]:
    """What taking each card costs in ``cid`` (0 in ``no_tricks``, where tricks cost)."""
    costs = [0] * 36
    if cid == NO_HEARTS:
        for i in bits(HEART_MASK):
            costs[i] = 1
        if players == 3:
            costs[CARD_BY_CODE["AH"].index] = costs[CARD_BY_CODE["KH"].index] = 2
    elif cid == NO_JACKS:
        for i in bits(JACK_MASK):
            costs[i] = 2
    elif cid == NO_KING:
        costs[CARD_BY_CODE["KH"].index] = 8
    return tuple(costs)


COSTS: Final = {(cid, n): card_costs(cid, n) for cid in range(4) for n in PACK_MASKS}


def win_chance(card: int, others: int) -> float:
    """A rough chance that ``card``, led, wins its trick: others duck with lower cards.

    ``others`` are the cards another seat may still hold. With no higher card out the lead
    surely wins; otherwise the share of outstanding lower cards stands for the chance that
    everyone can play under it.
    """
    higher = (others & ABOVE[card]).bit_count()
    if not higher:
        return 1.0
    lower = (others & BELOW[card]).bit_count()
    return lower / (lower + higher)


def _all_top_cards(cards: int, others: int) -> bool:
    """No card another seat may hold beats any of ``cards`` in its suit."""
    return all(not others & ABOVE[card] for card in bits(cards))


def certain_slam_card(hand: int, legal: int, trick: list[int], unplayed: int) -> int:
    """A card that wins this trick and every later one whatever the others hold, or -1.

    Led, a card that nothing outstanding of its suit beats wins (there are no trumps); so
    the seat takes every remaining trick exactly when it can win the current one with such
    a card and is left holding only such cards. ``unplayed`` as in ``choose_trick``.
    """
    others = unplayed & ~hand
    if not trick:
        return highest(legal) if _all_top_cards(hand, others) else -1
    led = SUIT_MASKS[trick[0] // 9]
    best = max(c for c in trick if (1 << c) & led)
    for card in bits(legal & led & ~BELOW[best] & ~(1 << best)):
        if not others & ABOVE[card] and _all_top_cards(hand & ~(1 << card), others):
            return card
    return -1


def choose_trick(
    cid: int, players: int, hand: int, legal: int, trick: list[int], unplayed: int
) -> int:
    """The heuristic card in a trick contract (``no_tricks`` to ``no_king_of_hearts``).

    ``trick`` holds the card indices already in the current trick in playing order and
    ``unplayed`` every card not yet played by anyone (own hand included).
    """
    if not legal & (legal - 1):
        return lowest(legal)
    costs = COSTS[cid, players]
    others = unplayed & ~hand
    if not trick:
        return _lead(cid, hand, legal, others, costs)
    led = SUIT_MASKS[trick[0] // 9]
    if legal & led:
        return _follow(cid, players, legal, trick, led, others, costs)
    return _discard(cid, hand, legal, others, costs)


def _lead(cid: int, hand: int, legal: int, others: int, costs: tuple[int, ...]) -> int:
    """Lead low in short suits: the card least likely to win, preferring suits we can void."""
    best_card = -1
    best_score = 1e9
    kh_out = cid == NO_KING and others & KH_BIT
    for card in bits(legal):
        suit_mask = SUIT_MASKS[card // 9]
        chance = win_chance(card, others)
        if not others & suit_mask:
            chance = 1.0
        cost = costs[card]
        # Taking the trick costs one point in no_tricks; elsewhere what lands in it.
        score = chance * (1.0 + 2.0 * cost) + 0.05 * (hand & suit_mask).bit_count()
        if kh_out and suit_mask == SUIT_MASKS[2] and card < CARD_BY_CODE["KH"].index:
            # A low Heart lead can force the King out of a hand short in Hearts.
            score -= 0.3
        score += 0.001 * (card % 9)
        if score < best_score:
            best_score = score
            best_card = card
    return best_card


def _follow(
    cid: int,
    players: int,
    legal: int,
    trick: list[int],
    led: int,
    others: int,
    costs: tuple[int, ...],
) -> int:
    """Duck under the winner with the highest card that still loses; else shed high safely."""
    best = max(c for c in trick if (1 << c) & led)
    under = legal & BELOW[best]
    over = legal & ~under
    last = len(trick) == players - 1
    trick_cost = sum(costs[c] for c in trick)
    if under:
        if last and over and cid != NO_TRICKS and not trick_cost:
            # Last to a trick with nothing in it: take it with a high, harmless card.
            safe = [c for c in bits(over) if not costs[c]]
            if safe:
                return safe[-1]
        return highest(under)
    # Every card wins for now: shed the highest card that costs nothing, if any.
    return min(bits(over), key=lambda c: (costs[c], -c))


def _discard(cid: int, hand: int, legal: int, others: int, costs: tuple[int, ...]) -> int:
    """Void in the led suit: dump the most dangerous card (penalty cards first, then winners)."""
    if cid == NO_KING:
        if legal & KH_BIT:
            return CARD_BY_CODE["KH"].index
        if others & KH_BIT and legal & AH_BIT:
            return CARD_BY_CODE["AH"].index
    best_card = -1
    best_key: tuple[float, float, int] = (-1.0, -1.0, -1)
    for card in bits(legal):
        key = (float(costs[card]), win_chance(card, others), card % 9)
        if key > best_key:
            best_key = key
            best_card = card
    return best_card


def crossing_penalty(total: int, value: int) -> int:
    """What laying a card of ``value`` on ``total`` costs in ``hundred``."""
    after = total + value
    penalty = 0
    if total <= 25 < after:
        penalty += 1
    if total <= 50 < after:
        penalty += 2
    if total <= 100 < after:
        penalty += 5
    return penalty


def _gap_to_next_threshold(total: int) -> int:
    for threshold in THRESHOLDS:
        if total <= threshold:
            return threshold - total
    return 0


def hundred_key(total: int, value: int) -> tuple[int, int, int]:
    """How the plan ranks playing ``value`` at ``total`` in the Hundred (smaller is better):
    the crossing penalty, then the gap left below the next threshold, then the higher value."""
    return (crossing_penalty(total, value), _gap_to_next_threshold(total + value), -value)


def choose_hundred(hand: int, total: int) -> int:
    """Cross no threshold when avoidable; leave the total just under one for the next player.

    Among equally cheap cards the one that brings the total closest below the next threshold
    wins, then the higher value: low cards are kept as escapes for when the total is close.
    """
    best_card = -1
    best_key: tuple[int, int, int] = (99, 999, 0)
    seen_ranks = 0
    for card in bits(hand):
        rank = card % 9
        if seen_ranks >> rank & 1:
            continue  # same value, same outcome
        seen_ranks |= 1 << rank
        key = hundred_key(total, HUNDRED_VALUES[rank])
        if key < best_key:
            best_key = key
            best_card = card
    return best_card


ROW_MINS: Final = {n: tuple(lowest_rank_in_pack(n, s) for s in range(4)) for n in PACK_MASKS}


def choose_layout(players: int, hand: int, legal: int, unplayed: int) -> int:
    """Prefer cards that unlock our own further cards; withhold cards that only help others.

    ``unplayed`` holds every card not laid yet (own hand included). ``legal`` already reflects the ``layout`` house rule: with ``free`` it may offer Jacks next to extensions.
    """
    if legal == PASS_BIT or not legal & (legal - 1):
        return lowest(legal)
    row_mins = ROW_MINS[players]
    best_card = -1
    best_score = -1e9
    for card in bits(legal):
        suit, rank = divmod(card, 9)
        base = suit * 9
        row_min = row_mins[suit]
        score = 0.0
        if rank == JACK:
            directions = ((base + rank - 1, -1, base + row_min), (base + rank + 1, 1, base + ACE))
        elif rank < JACK:
            directions = ((card - 1, -1, base + row_min),)
        else:
            directions = ((card + 1, 1, base + ACE),)
        for start, step, end in directions:
            if (step < 0 and start < end) or (step > 0 and start > end):
                continue  # the row ends here: laying this card opens nothing
            run = 0
            position = start
            while (step < 0 and position >= end) or (step > 0 and position <= end):
                if not hand >> position & 1:
                    break
                run += 1
                position += step
            beyond = 0
            while (step < 0 and position >= end) or (step > 0 and position <= end):
                if hand >> position & 1:
                    beyond += 1
                position += step
            score += 2.0 * run
            if beyond:
                score += 1.0 * beyond  # opening the row leads towards our stranded cards
            elif not run and unplayed >> start & 1:
                score -= 1.5  # the next card is someone else's: laying this only helps them
        score -= 0.01 * rank if rank < JACK else 0.0
        if score > best_score:
            best_score = score
            best_card = card
    return best_card


def choose_planned(
    cid: int, players: int, hand: int, legal: int, trick: list[int], unplayed: int, total: int
) -> int:
    """The plan's move for a seat holding ``hand`` with a real choice among ``legal``, in any
    contract (``total``: the Hundred's running total). The innermost rollout loop
    (``strong.heuristic_rollout``) keeps this dispatch inline: a call per card is its cost."""
    if cid < HUNDRED:
        return choose_trick(cid, players, hand, legal, trick, unplayed)
    if cid == HUNDRED:
        return choose_hundred(hand, total)
    return choose_layout(players, hand, legal, unplayed)
