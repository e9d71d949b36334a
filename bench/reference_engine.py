"""Plain reference implementation of the Rosbiratschka rules (../shared/RULES.md).

Written from RULES.md alone, without looking at the optimised engine in ``games/engine``,
so that the two can be held against each other. It is deliberately straightforward (cards
as strings, hands as lists, one loop over the moves, one ``if`` branch per contract) and
uses the standard library only. It is also the speed baseline for the fast engine's
command line:

    python bench/reference_engine.py score FILE      # or - for standard input

Readings chosen where RULES.md leaves room (each is the one closest to the text):

1. Row ends in ``rosbiratschka`` are not stored separately: a row may grow by the next
   rank at either end, and a card outside the pack can never be held (the pack check
   rejects it), so the rows stop at 9 (3 players), 7 (4 players), 6 (5/6 players) and 7
   for Bells with 5 players exactly as section 4.6 says.
2. Doubling is applied literally: in a trick contract "at least one player takes none"
   doubles every cost even when it is unavoidable (e.g. ``no_jacks`` with 5 or 6 players
   always doubles unless there is a slam). With ``doubling: false`` nothing doubles; a
   slam still scores -8 (the slam is not a doubling).
3. A slam in ``no_hearts`` / ``no_jacks`` means taking every Heart / Jack of the pack in
   play (6, 8 or 9 Hearts by player count; always four Jacks).
4. ``no_king_of_hearts`` always ends with the trick holding KH (every pack contains KH),
   so a record whose moves run out before that trick is complete is "deal not finished".
5. ``hundred`` counts strictly above 25/50/100; one card (at most 11) can never cross
   two thresholds at once. The pack always totals 120, so the deal always ends.
6. ``"pass"`` is a legal move only in ``rosbiratschka``; in every other contract it is an
   illegal move at its index. A move that is not a string, or a string that is not in the
   mover's hand, is an illegal move at its index (not a malformed record).
7. Malformed records (``move: null``): not a JSON object, ``players`` not an integer 3..6,
   unknown ``contract``, ``dealer`` not an integer 0..n-1, ``hands`` not a list of n lists,
   a card that is not in this player count's pack, a duplicated or missing card, hands of
   unequal size, ``moves`` missing or not a list, and bad ``rules``: not an object, an
   unknown key (a misspelt house rule must not silently fall back to the default),
   ``doubling`` not a boolean or ``layout`` not ``"extend_first"``/``"free"``. Booleans
   are not accepted as integers. Extra top-level keys (an id, say) are ignored.
8. Command line: a line that is not valid UTF-8, empty, or not JSON is an error line with
   ``move: null`` (one output line per input line); exit 2 only when the input file cannot
   be opened or read, or the command line itself is wrong.
9. Card codes are case-sensitive (``"ah"`` is not a card). The score command takes deal
   records only (section 7); a Partie record on a line is malformed (it has no contract).

``Deal`` is the move-by-move state both the scorer and ``bench/make_records.py`` use:
``legal_moves()`` lists what the seat to play may do, ``play(move)`` applies one move or
raises ``IllegalMove``, ``penalties()`` scores a finished deal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator

SUITS = "CSHD"
RANKS = "6789TJQKA"
CONTRACTS = (
    "no_tricks",
    "no_hearts",
    "no_jacks",
    "no_king_of_hearts",
    "hundred",
    "rosbiratschka",
)
TRICK_CONTRACTS = ("no_tricks", "no_hearts", "no_jacks", "no_king_of_hearts")
CARD_POINTS = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0, "6": 0}
DEFAULT_RULES = {"doubling": True, "layout": "extend_first"}
LAYOUT_CHOICES = ("extend_first", "free")
PASS = "pass"


def make_pack(players: int) -> list[str]:
    """Return the pack for a player count (RULES.md section 1)."""
    if players == 3:
        ranks = "9TJQKA"
    elif players == 4:
        ranks = "789TJQKA"
    else:
        ranks = "6789TJQKA"
    pack = [rank + suit for suit in SUITS for rank in ranks]
    if players == 5:
        pack.remove("6D")
    return pack


class MalformedRecord(Exception):
    """The record itself is broken; reported with ``move: null``."""


class IllegalMove(Exception):
    """A move breaks the rules; the caller reports it at the move's index."""


def parse_record(record: object) -> tuple[int, str, int, list[list[str]], list, dict]:
    """Check the shape of a deal record and return its parts, or raise MalformedRecord."""
    if not isinstance(record, dict):
        raise MalformedRecord("record is not a JSON object")

    players = record.get("players")
    if not isinstance(players, int) or isinstance(players, bool) or not 3 <= players <= 6:
        raise MalformedRecord(f"players must be 3 to 6, got {players!r}")

    contract = record.get("contract")
    if contract not in CONTRACTS:
        raise MalformedRecord(f"unknown contract {contract!r}")

    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players:
        raise MalformedRecord(f"dealer must be a seat 0 to {players - 1}, got {dealer!r}")

    rules = dict(DEFAULT_RULES)
    if "rules" in record:
        given = record["rules"]
        if not isinstance(given, dict):
            raise MalformedRecord("rules must be an object")
        for key, value in given.items():
            if key == "doubling":
                if not isinstance(value, bool):
                    raise MalformedRecord(f"rules.doubling must be true or false, got {value!r}")
            elif key == "layout":
                if value not in LAYOUT_CHOICES:
                    raise MalformedRecord(f"unknown rules.layout {value!r}")
            else:
                raise MalformedRecord(f"unknown house rule {key!r}")
            rules[key] = value

    hands = record.get("hands")
    if not isinstance(hands, list) or not all(isinstance(hand, list) for hand in hands):
        raise MalformedRecord("hands must be a list of lists of cards")
    if len(hands) != players:
        raise MalformedRecord(f"{players} players need {players} hands, got {len(hands)}")
    pack = make_pack(players)
    seen = []
    for seat, hand in enumerate(hands):
        for card in hand:
            if card not in pack:
                raise MalformedRecord(
                    f"seat {seat} holds {card!r}, not in the {len(pack)}-card pack"
                )
            if card in seen:
                raise MalformedRecord(f"card {card} is dealt twice")
            seen.append(card)
    missing = [card for card in pack if card not in seen]
    if missing:
        raise MalformedRecord(f"cards missing from the deal: {' '.join(missing)}")
    each = len(pack) // players
    for seat, hand in enumerate(hands):
        if len(hand) != each:
            raise MalformedRecord(f"seat {seat} holds {len(hand)} cards, every hand needs {each}")

    moves = record.get("moves")
    if not isinstance(moves, list):
        raise MalformedRecord("moves must be a list")

    return players, contract, dealer, [list(hand) for hand in hands], moves, rules


class Deal:
    """One deal being played out move by move; shared by the scorer and the generator."""

    def __init__(
        self, players: int, contract: str, dealer: int, hands: list[list[str]], rules: dict
    ) -> None:
        self.players = players
        self.contract = contract
        self.hands = [list(hand) for hand in hands]
        self.rules = rules
        self.seat = (dealer + 1) % players  # whose turn it is
        self.finished = False
        # trick contracts
        self.trick: list[tuple[int, str]] = []
        self.taken: list[tuple[int, list[str]]] = []  # (winner, cards) per completed trick
        self.tricks_per_deal = len(hands[0])
        # hundred
        self.total = 0
        self.hundred_penalties = [0] * players
        # rosbiratschka: suit -> [lowest rank index, highest rank index] of its row
        self.rows: dict[str, list[int]] = {}
        self.rosbi_loser: int | None = None

    # ----- which moves are legal -------------------------------------------------------------

    def extends_row(self, card: str) -> bool:
        row = self.rows.get(card[1])
        if row is None:
            return False
        rank = RANKS.index(card[0])
        return rank == row[0] - 1 or rank == row[1] + 1

    def legal_moves(self) -> list[str]:
        """All moves the seat to play may make now (in hand order); empty once finished."""
        if self.finished:
            return []
        hand = self.hands[self.seat]
        if self.contract in TRICK_CONTRACTS:
            if self.trick:
                led = self.trick[0][1][1]
                following = [card for card in hand if card[1] == led]
                if following:
                    return following
            return list(hand)
        if self.contract == "hundred":
            return list(hand)
        extending = [card for card in hand if self.extends_row(card)]
        jacks = [card for card in hand if card[0] == "J"]
        if self.rules["layout"] == "free":
            return extending + jacks or [PASS]
        return extending or jacks or [PASS]

    # ----- playing a move --------------------------------------------------------------------

    def play(self, move: object) -> None:
        """Apply one move for the seat to play, or raise IllegalMove explaining why not."""
        if self.finished:
            raise IllegalMove("move after the end of the deal")
        seat = self.seat
        hand = self.hands[seat]
        if move == PASS:
            if self.contract != "rosbiratschka":
                raise IllegalMove(f"seat {seat} may not pass in {self.contract}")
        elif not isinstance(move, str) or move not in hand:
            raise IllegalMove(f"seat {seat} does not hold {move!r}")

        if self.contract in TRICK_CONTRACTS:
            self.play_trick_card(seat, move)
        elif self.contract == "hundred":
            self.play_hundred_card(seat, move)
        else:
            self.play_layout_move(seat, move)

    def play_trick_card(self, seat: int, card: str) -> None:
        hand = self.hands[seat]
        if self.trick:
            led = self.trick[0][1][1]
            if card[1] != led:
                for held in hand:
                    if held[1] == led:
                        raise IllegalMove(f"seat {seat} must follow suit (holds {held})")
        hand.remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.players:
            self.seat = (seat + 1) % self.players
            return
        led = self.trick[0][1][1]
        winner, best = self.trick[0]
        for other_seat, other_card in self.trick[1:]:
            if other_card[1] == led and RANKS.index(other_card[0]) > RANKS.index(best[0]):
                winner, best = other_seat, other_card
        cards = [played for _, played in self.trick]
        self.taken.append((winner, cards))
        self.trick = []
        self.seat = winner
        king_taken = self.contract == "no_king_of_hearts" and "KH" in cards
        if king_taken or len(self.taken) == self.tricks_per_deal:
            self.finished = True

    def play_hundred_card(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        before = self.total
        self.total += CARD_POINTS[card[0]]
        if before <= 25 < self.total:
            self.hundred_penalties[seat] += 1
        if before <= 50 < self.total:
            self.hundred_penalties[seat] += 2
        if before <= 100 < self.total:
            self.hundred_penalties[seat] += 5
            self.finished = True
        self.seat = (seat + 1) % self.players

    def play_layout_move(self, seat: int, move: str) -> None:
        hand = self.hands[seat]
        extending = [card for card in hand if self.extends_row(card)]
        jacks = [card for card in hand if card[0] == "J"]
        if move == PASS:
            if extending or jacks:
                raise IllegalMove(f"seat {seat} may not pass (holds {(extending + jacks)[0]})")
        elif move[0] == "J":
            if extending and self.rules["layout"] != "free":
                raise IllegalMove(f"seat {seat} must extend a row (holds {extending[0]})")
            self.rows[move[1]] = [RANKS.index("J"), RANKS.index("J")]
            hand.remove(move)
        elif self.extends_row(move):
            row = self.rows[move[1]]
            rank = RANKS.index(move[0])
            if rank < row[0]:
                row[0] = rank
            else:
                row[1] = rank
            hand.remove(move)
        else:
            raise IllegalMove(f"seat {seat}: {move} neither extends a row nor is a Jack")

        holders = [s for s in range(self.players) if self.hands[s]]
        if len(holders) <= 1:
            self.finished = True
            self.rosbi_loser = holders[0] if holders else None
            return
        next_seat = (seat + 1) % self.players
        while not self.hands[next_seat]:
            next_seat = (next_seat + 1) % self.players
        self.seat = next_seat

    # ----- scoring ---------------------------------------------------------------------------

    def penalties(self) -> list[int]:
        """Penalty points of a finished deal, seat by seat."""
        n = self.players
        if self.contract == "hundred":
            return list(self.hundred_penalties)
        if self.contract == "rosbiratschka":
            result = [0] * n
            if self.rosbi_loser is not None:
                result[self.rosbi_loser] = 8
            return result
        if self.contract == "no_king_of_hearts":
            result = [0] * n
            for winner, cards in self.taken:
                if "KH" in cards:
                    result[winner] = 8
            return result

        # no_tricks, no_hearts, no_jacks: cost and count of what each seat took
        cost = [0] * n
        count = [0] * n
        last = self.tricks_per_deal - 1
        for index, (winner, cards) in enumerate(self.taken):
            if self.contract == "no_tricks":
                trick_cost = 1
                if n == 5 and index == last:
                    trick_cost = 2
                if n == 6 and index in (0, last):
                    trick_cost = 2
                cost[winner] += trick_cost
                count[winner] += 1
            elif self.contract == "no_hearts":
                for card in cards:
                    if card[1] == "H":
                        if n == 3 and card in ("AH", "KH"):
                            cost[winner] += 2
                        else:
                            cost[winner] += 1
                        count[winner] += 1
            else:  # no_jacks
                for card in cards:
                    if card[0] == "J":
                        cost[winner] += 2
                        count[winner] += 1

        if self.contract == "no_tricks":
            everything = len(self.taken)
        elif self.contract == "no_hearts":
            everything = len([card for card in make_pack(n) if card[1] == "H"])
        else:
            everything = 4
        for seat in range(n):
            if count[seat] == everything:
                result = [0] * n
                result[seat] = -8
                return result
        if self.rules["doubling"] and 0 in count:
            return [points * 2 for points in cost]
        return cost


def new_deal(record: dict) -> tuple[Deal, list]:
    """Build the starting position of a record and return it with the record's moves."""
    players, contract, dealer, hands, moves, rules = parse_record(record)
    return Deal(players, contract, dealer, hands, rules), moves


def score_record(record: object) -> dict:
    """Score one deal record: ``{"penalties": [...]}`` or ``{"error": {"move", "message"}}``."""
    try:
        deal, moves = new_deal(record)
    except MalformedRecord as problem:
        return {"error": {"move": None, "message": str(problem)}}
    for index, move in enumerate(moves):
        try:
            deal.play(move)
        except IllegalMove as problem:
            return {"error": {"move": index, "message": str(problem)}}
    if not deal.finished:
        return {"error": {"move": len(moves), "message": "deal not finished"}}
    return {"penalties": deal.penalties()}


def score_text(line: str) -> dict:
    """Score one JSON Lines line; bad JSON is a malformed record."""
    try:
        record = json.loads(line)
    except ValueError as problem:
        return {"error": {"move": None, "message": f"bad JSON: {problem}"}}
    return score_record(record)


def score_lines(lines: Iterable[str]) -> Iterator[str]:
    """Score JSON Lines input, yielding one JSON output line (no newline) per input line."""
    for line in lines:
        yield json.dumps(score_text(line))


def main(argv: list[str] | None = None) -> int:
    """Command line of RULES.md section 7; returns the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "score":
        print("usage: reference_engine.py score FILE|-", file=sys.stderr)
        return 2
    any_error = False
    out = sys.stdout
    try:
        source = sys.stdin.buffer if args[1] == "-" else open(args[1], "rb")  # noqa: SIM115
        try:
            for raw in source:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as problem:
                    result = {"error": {"move": None, "message": f"bad encoding: {problem}"}}
                else:
                    result = score_text(line)
                if "error" in result:
                    any_error = True
                out.write(json.dumps(result) + "\n")
        finally:
            if source is not sys.stdin.buffer:
                source.close()
    except OSError as problem:
        out.flush()
        print(f"cannot read input: {problem}", file=sys.stderr)
        return 2
    out.flush()
    return 1 if any_error else 0


if __name__ == "__main__":
    sys.exit(main())
