"""Deal and Partie records (RULES.md section 6): validation, replay, scoring, JSON round trip.

A record is the platform's interchange format for stored games, exports, imports and tests.
Parsing keeps exactly what was given (hand order, whether ``rules`` was present) so that
``to_dict(from_dict(x)) == x`` for every valid record.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .cards import CARD_BY_CODE, MOVE_INDEX_BY_CODE, MOVES_BY_INDEX, Card, Move
from .deal import Deal, hand_masks
from .errors import IllegalMove, MalformedRecord
from .rules import CONTRACT_ORDER, DEFAULT_RULES, Contract, HouseRules

NOT_FINISHED = "deal not finished"
_json_string = json.encoder.encode_basestring_ascii  # what json.dumps uses for a str
_scan_json = json.decoder.JSONDecoder().scan_once  # json.loads' scanner, with its defaults
_NOT_PARSED = object()
_CONTRACTS = {c.value: c for c in Contract}


def _int_field(obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if type(value) is int:
        return value
    if key not in obj:
        raise MalformedRecord(f"the record has no {key!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedRecord(f"{key!r} must be a whole number, not {value!r}")
    return value


_RULES_SEEN: dict[tuple[tuple[str, Any], ...], HouseRules] = {}
"""Valid ``rules`` objects already parsed, by their items (a few dozen at most)."""


def _parse_rules(obj: dict[str, Any]) -> HouseRules:
    """The record's house rules; ``rules`` may be left out, but when present it is an object."""
    given = obj.get("rules", DEFAULT_RULES)
    if given is DEFAULT_RULES:
        return DEFAULT_RULES
    if type(given) is dict:
        try:
            seen = _RULES_SEEN.get(tuple(given.items()))
        except TypeError:  # an unhashable value, which from_dict refuses below
            seen = None
        # 1 == True as a key, so the cached object is taken only for a real boolean.
        if seen is not None and type(given.get("doubling", True)) is bool:
            return seen
    if not isinstance(given, dict):
        raise MalformedRecord("'rules' must be an object such as {\"doubling\": false}")
    try:
        rules = HouseRules.from_dict(given)
    except (ValueError, TypeError) as exc:
        raise MalformedRecord(str(exc)) from None
    if type(given) is dict:
        _RULES_SEEN[tuple(given.items())] = rules
    return rules


def _parse_header(obj: Any) -> tuple[int, Contract, int, list[int], HouseRules, list[Any]]:
    """Check everything about a deal record except its moves; the one validation path."""
    if not isinstance(obj, dict):
        raise MalformedRecord("a deal record must be a JSON object")
    players = obj.get("players")
    if type(players) is not int:
        players = _int_field(obj, "players")
    if players not in (3, 4, 5, 6):
        raise MalformedRecord(f"Rosbiratschka is played by 3 to 6 players, not {players}")
    if "contract" not in obj:
        raise MalformedRecord("the record has no 'contract'")
    name = obj["contract"]
    contract = _CONTRACTS.get(name) if isinstance(name, str) else None
    if contract is None:
        raise MalformedRecord(f"unknown contract {name!r}")
    dealer = obj.get("dealer")
    if type(dealer) is not int:
        dealer = _int_field(obj, "dealer")
    if not 0 <= dealer < players:
        raise MalformedRecord(f"dealer must be a seat from 0 to {players - 1}, not {dealer}")
    if "hands" not in obj:
        raise MalformedRecord("the record has no 'hands'")
    masks = hand_masks(players, obj["hands"])
    rules = _parse_rules(obj)
    if "moves" not in obj:
        raise MalformedRecord("the record has no 'moves' (write [] for a deal not yet played)")
    moves = obj["moves"]
    if not isinstance(moves, list):
        raise MalformedRecord("'moves' must be a list")
    return players, contract, dealer, masks, rules, moves


def _replay(deal: Deal, moves: list[Any]) -> Deal:
    """Play ``moves`` into ``deal``; an ``IllegalMove`` carries the index of the first bad move.

    Codes are turned into indices in one pass; an unknown code only counts once every move
    before it has been played, so an earlier illegal move is still the one reported.
    """
    index_of = MOVE_INDEX_BY_CODE
    unknown_at = None
    try:
        indices = tuple(map(index_of.__getitem__, moves))
    except (KeyError, TypeError):
        known = []
        for position, code in enumerate(moves):
            index = index_of.get(code) if isinstance(code, str) else None
            if index is None:
                unknown_at = position
                break
            known.append(index)
        indices = tuple(known)
    start = deal.move_count
    try:
        deal._play_move_indices(indices)  # whole numbers 0-36 from the table above
    except IllegalMove as exc:
        # Everything before the bad move was played, so the deal's count gives its position.
        if exc.move_index is None:
            exc.move_index = deal.move_count - start
        raise
    if unknown_at is not None:
        code = moves[unknown_at]
        raise IllegalMove(
            f'{code!r} is not a card or "pass"',
            unknown_at,
            reason="not_a_move",
            details={"move": str(code)},
        )
    return deal


def score_record(obj: Any) -> tuple[int, ...]:
    """The penalties of a complete deal record (a parsed JSON object).

    Raises ``MalformedRecord`` for a record that is not a deal at all, ``IllegalMove`` (with
    ``move_index``) for the first bad move, an unfinished deal, or a move after the end.
    """
    players, contract, dealer, masks, rules, moves = _parse_header(obj)
    deal = _replay(Deal.from_masks(players, contract, dealer, masks, rules), moves)
    if not deal.over:
        raise IllegalMove(NOT_FINISHED, len(moves), reason="not_finished")
    return deal.penalties  # type: ignore[return-value]


def score_line(line: str | bytes) -> str:
    """One line of the ``score`` command: a JSON record in, one JSON result line out."""
    obj = _NOT_PARSED
    if type(line) is str:
        # json.loads is this scanner plus whitespace and type handling; a line that is one
        # JSON value from the first character to the last needs only the scanner. Anything
        # else (whitespace around it, extra data, an error) goes to json.loads below.
        try:
            value, end = _scan_json(line, 0)
            if end == len(line):
                obj = value
        except (StopIteration, ValueError, RecursionError):
            pass
    try:
        if obj is _NOT_PARSED:
            obj = json.loads(line)
    except UnicodeDecodeError:
        return json.dumps({"error": {"move": None, "message": "the line is not UTF-8 text"}})
    except ValueError as exc:
        return json.dumps({"error": {"move": None, "message": f"bad JSON: {exc}"}})
    except RecursionError:
        return _error_line(None, "bad JSON: brackets nested too deeply")
    try:
        penalties = score_record(obj)
    except IllegalMove as exc:
        return _error_line(exc.move_index, exc.message)
    except MalformedRecord as exc:
        return _error_line(None, exc.message)
    return '{"penalties": [' + ", ".join(map(str, penalties)) + "]}"


def _error_line(move: int | None, message: str) -> str:
    """``json.dumps({"error": {"move": move, "message": message}})``, written out directly."""
    where = "null" if move is None else str(move)
    return '{"error": {"move": ' + where + ', "message": ' + _json_string(message) + "}}"


def score_lines(lines: Iterable[str | bytes]) -> Iterator[str]:
    for line in lines:
        yield score_line(line)


@dataclass(frozen=True, slots=True)
class DealRecord:
    """A validated deal record; ``rules_given`` keeps the ``rules`` object as it was written."""

    players: int
    contract: Contract
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    moves: tuple[Move, ...]
    rules_given: dict[str, Any] | None = None

    @property
    def rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules_given)

    @classmethod
    def from_dict(cls, obj: Any) -> DealRecord:
        """Validate the set-up and the move codes; legality of the moves is ``replay()``'s job."""
        players, contract, dealer, _masks, _rules, moves = _parse_header(obj)
        parsed = []
        for position, code in enumerate(moves):
            index = MOVE_INDEX_BY_CODE.get(code) if isinstance(code, str) else None
            if index is None:
                raise IllegalMove(
                    f'{code!r} is not a card or "pass"',
                    position,
                    reason="not_a_move",
                    details={"move": str(code)},
                )
            parsed.append(MOVES_BY_INDEX[index])
        rules = obj.get("rules")
        return cls(
            players=players,
            contract=contract,
            dealer=dealer,
            hands=tuple(tuple(CARD_BY_CODE[c] for c in hand) for hand in obj["hands"]),
            moves=tuple(parsed),
            rules_given=None if rules is None else dict(rules),
        )

    @classmethod
    def from_json(cls, text: str) -> DealRecord:
        try:
            obj = json.loads(text)
        except ValueError as exc:
            raise MalformedRecord(f"bad JSON: {exc}") from None
        return cls.from_dict(obj)

    @classmethod
    def from_deal(cls, deal: Deal, include_rules: bool = True) -> DealRecord:
        return cls(
            players=deal.players,
            contract=deal.contract,
            dealer=deal.dealer,
            hands=tuple(deal.initial_hand(s) for s in range(deal.players)),
            moves=deal.moves,
            rules_given=deal.rules.to_dict() if include_rules else None,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "players": self.players,
            "contract": self.contract.value,
            "dealer": self.dealer,
            "hands": [[c.code for c in hand] for hand in self.hands],
            "moves": [m.code for m in self.moves],
        }
        if self.rules_given is not None:
            out["rules"] = dict(self.rules_given)
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    def new_deal(self) -> Deal:
        """The deal as dealt, before any move."""
        return Deal(self.players, self.contract, self.dealer, self.hands, self.rules)

    def replay(self) -> Deal:
        """The deal after every recorded move; raises ``IllegalMove`` with the bad move's index."""
        return _replay(self.new_deal(), [m.code for m in self.moves])

    def penalties(self) -> tuple[int, ...]:
        """The penalties of a complete record (errors as in ``score_record``)."""
        deal = self.replay()
        if not deal.over:
            raise IllegalMove(NOT_FINISHED, len(self.moves), reason="not_finished")
        return deal.penalties  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class PartieRecord:
    """Up to six deal records in the order of RULES.md section 2, with the Partie's rules."""

    players: int
    first_dealer: int
    deals: tuple[DealRecord, ...]
    rules_given: dict[str, Any] | None = None

    @property
    def rules(self) -> HouseRules:
        return HouseRules.from_dict(self.rules_given)

    @classmethod
    def from_dict(cls, obj: Any) -> PartieRecord:
        if not isinstance(obj, dict):
            raise MalformedRecord("a Partie record must be a JSON object")
        players = _int_field(obj, "players")
        if players not in (3, 4, 5, 6):
            raise MalformedRecord(f"Rosbiratschka is played by 3 to 6 players, not {players}")
        first_dealer = _int_field(obj, "first_dealer")
        if not 0 <= first_dealer < players:
            raise MalformedRecord(f"first_dealer must be a seat from 0 to {players - 1}")
        rules = _parse_rules(obj)
        raw_deals = obj.get("deals", [])
        if not isinstance(raw_deals, list) or len(raw_deals) > 6:
            raise MalformedRecord("'deals' must be a list of at most six deal records")
        deals = []
        for k, raw in enumerate(raw_deals):
            deal = DealRecord.from_dict(raw)
            if deal.players != players:
                raise MalformedRecord(f"deal {k + 1} is for {deal.players} players, not {players}")
            if deal.contract is not CONTRACT_ORDER[k]:
                raise MalformedRecord(
                    f"deal {k + 1} must be {CONTRACT_ORDER[k].value}, not {deal.contract.value}"
                )
            if deal.dealer != (first_dealer + k) % players:
                raise MalformedRecord(
                    f"deal {k + 1} must be dealt by seat {(first_dealer + k) % players}"
                )
            if deal.rules_given is not None and deal.rules != rules:
                raise MalformedRecord(f"deal {k + 1} has other house rules than the Partie")
            deals.append(deal)
        given = obj.get("rules")
        return cls(players, first_dealer, tuple(deals), None if given is None else dict(given))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": self.players, "first_dealer": self.first_dealer}
        if self.rules_given is not None:
            out["rules"] = dict(self.rules_given)
        out["deals"] = [d.to_dict() for d in self.deals]
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> PartieRecord:
        try:
            obj = json.loads(text)
        except ValueError as exc:
            raise MalformedRecord(f"bad JSON: {exc}") from None
        return cls.from_dict(obj)


__all__ = [
    "DEFAULT_RULES",
    "NOT_FINISHED",
    "DealRecord",
    "PartieRecord",
    "score_line",
    "score_lines",
    "score_record",
]
