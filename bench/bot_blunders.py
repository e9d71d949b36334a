"""Count the two bot blunders of the play-strength issue, before and after, in the same deals.

* The beginner playing the King of Hearts into a trick it must win while another card would
  do (in ``no_king_of_hearts``): the issue counted 30 in 2,000 Parties.
* The heuristic ducking a certain slam (every remaining trick sure to be won, all items of
  the contract so far taken) in ``no_tricks``, ``no_hearts`` and ``no_jacks``.

Every decision of the bots of this commit is checked, and beside it what the rule before the
fix would have chosen in the same position (the beginner's plain lowest card, the heuristic's
plan without the slam check): a paired count on the same deals.

    python bench/bot_blunders.py                 # 2,000 deals per contract and player count
    python bench/bot_blunders.py --deals 200     # quicker
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import make_bot  # noqa: E402
from games.bots.base import CONTRACT_IDS, hand_mask, legal_mask, move_for, unplayed_mask  # noqa: E402
from games.bots.beginner import KING_OF_HEARTS, king_takes_itself  # noqa: E402
from games.bots.heuristic import slam_still_open  # noqa: E402
from games.bots.policy import certain_slam_card, choose_trick  # noqa: E402
from games.engine import Contract  # noqa: E402
from games.engine.partie import random_deal  # noqa: E402

SLAM_CONTRACTS = (Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS)


def beginner_king_blunders(players: int, deals: int, seed: int) -> tuple[int, int]:
    """(before, after): King-of-Hearts self-takes the old and the new beginner choose."""
    rng = random.Random(seed)
    before = after = 0
    for n in range(deals):
        deal = random_deal(players, Contract.NO_KING_OF_HEARTS, rng)
        bots = [make_bot("beginner", seed=seed * 1000 + n * 10 + s) for s in range(players)]
        while not deal.over:
            view = deal.view_for(deal.turn)
            move = bots[deal.turn].choose(view)
            if king_takes_itself(view):
                trick = view.current_trick
                void = bool(trick) and all(m.suit != trick[0][1].suit for m in view.legal_moves)
                old_rank = (max if void else min)(m.rank for m in view.legal_moves)
                before += old_rank == KING_OF_HEARTS.rank
                after += move is KING_OF_HEARTS
            deal.play(move)
    return before, after


def heuristic_slam_misses(
    players: int, contract: Contract, deals: int, seed: int
) -> tuple[int, int, int]:
    """(positions with a certain slam, old plan breaks it, new plan breaks it)."""
    rng = random.Random(seed)
    certain = before = after = 0
    cid = CONTRACT_IDS[contract]
    for n in range(deals):
        deal = random_deal(players, contract, rng)
        bots = [make_bot("heuristic", seed=seed * 1000 + n * 10 + s) for s in range(players)]
        while not deal.over:
            view = deal.view_for(deal.turn)
            move = bots[deal.turn].choose(view)
            if len(view.legal_moves) > 1 and slam_still_open(view, cid):
                hand, legal, unplayed = hand_mask(view), legal_mask(view), unplayed_mask(view)
                trick = [card.index for _s, card in view.current_trick]
                if certain_slam_card(hand, legal, trick, unplayed) >= 0:
                    certain += 1
                    old = move_for(choose_trick(cid, players, hand, legal, trick, unplayed))
                    before += not keeps_slam(old.index, hand, legal, trick, unplayed)
                    after += not keeps_slam(move.index, hand, legal, trick, unplayed)
            deal.play(move)
    return certain, before, after


def keeps_slam(card: int, hand: int, legal: int, trick: list[int], unplayed: int) -> bool:
    """Whether playing ``card`` still leaves every remaining trick sure to be won."""
    return certain_slam_card(hand, 1 << card, trick, unplayed) == card


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per contract and count")
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    started = time.perf_counter()
    print(f"{args.deals} deals per row, seed {args.seed}")
    print("\n| players | beginner: King of Hearts into its own trick, before | after |")
    print("|---|---|---|")
    for players in (3, 4, 5, 6):
        before, after = beginner_king_blunders(players, args.deals, args.seed + players)
        print(f"| {players} | {before} | {after} |")
    print("\n| players | contract | certain-slam positions | heuristic broke it, before | after |")
    print("|---|---|---|---|---|")
    for players in (3, 4, 5, 6):
        for contract in SLAM_CONTRACTS:
            certain, before, after = heuristic_slam_misses(
                players, contract, args.deals, args.seed + 10 * players
            )
            print(f"| {players} | {contract.value} | {certain} | {before} | {after} |")
    print(f"\n{time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
