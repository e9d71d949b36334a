"""Refusals at the live table are worded in the visitor's language; codes stay the same."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async
from django.template.loader import render_to_string
from django.utils import translation

from games import events, lobby
from games.engine import Contract, Deal, HouseRules, IllegalMove, random_deal
from games.live.messages import card_look, card_name, illegal_move_text
from games.models import TableEvent
from tests.games.factories import UserFactory
from tests.games.live.helpers import Viewer, humans_table, table_version

# --------------------------------------------------------------------------- engine refusals


def refusal(deal: Deal, move: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        deal.play(move)
    return caught.value


def trick_deal_after_a_lead() -> tuple[Deal, str, list[str], str]:
    """A trick deal where the second player holds the led suit and another one; returns the
    deal, an off-suit card of the follower, the follower's cards of the led suit, the suit."""
    for seed in range(200):
        deal = random_deal(4, Contract.NO_TRICKS, random.Random(seed), dealer=0)
        lead = deal.legal_moves()[0]
        deal.play(lead)
        hand = [c.code for c in deal.hand(deal.turn)]
        same = [c for c in hand if c[1] == lead.code[1]]
        other = [c for c in hand if c[1] != lead.code[1]]
        if same and other:
            return deal, other[0], same, lead.code[1]
    raise AssertionError("no seed in 0-199 gives a follower with both kinds of cards")


def test_not_following_suit_names_the_rule_the_suit_and_the_cards():
    deal, off_suit, same_suit, suit = trick_deal_after_a_lead()
    error = refusal(deal, off_suit)
    assert error.reason == "must_follow"
    assert "CSHD"[error.details["suit"]] == suit
    assert sorted(error.details["cards"]) == sorted(same_suit)
    with translation.override("de"):
        german = illegal_move_text(error)
    with translation.override("en"):
        english = illegal_move_text(error)
    suit_de = {"C": "Kreuz", "S": "Pik", "H": "Herz", "D": "Karo"}[suit]
    suit_en = {"C": "Clubs", "S": "Spades", "H": "Hearts", "D": "Diamonds"}[suit]
    assert german.startswith(f"Du musst {suit_de} bedienen: Du hast ")
    assert english.startswith(f"You must follow {suit_en}: you hold ")
    # Cards are named as the pack names them, never by their codes.
    for language, sentence in (("de", german), ("en", english)):
        with translation.override(language):
            assert all(card_name(card) in sentence for card in same_suit)
        assert not any(card in sentence.split() for card in same_suit)


def test_a_refusal_names_cards_and_suits_as_the_players_pack_does():
    deal, off_suit, same_suit, suit = trick_deal_after_a_lead()
    error = refusal(deal, off_suit)
    with translation.override("de"), card_look("german"):
        german = illegal_move_text(error)
    with translation.override("en"), card_look("german"):
        english = illegal_move_text(error)
    suit_de = {"C": "Eichel", "S": "Grün", "H": "Herz", "D": "Schellen"}[suit]
    suit_en = {"C": "Acorns", "S": "Leaves", "H": "Hearts", "D": "Bells"}[suit]
    assert german.startswith(f"Du musst {suit_de} bedienen: Du hast {suit_de}-")
    assert english.startswith(f"You must follow {suit_en}: you hold ")
    assert f" of {suit_en}" in english
    with translation.override("de"), card_look("german"):
        assert card_name("QH") == "Herz-Ober" and card_name("TC") == "Eichel-10"
    with translation.override("en"), card_look("french"):
        assert card_name("QH") == "Queen of Hearts" and card_name("AS") == "Ace of Spades"


def test_the_german_packs_ace_is_an_ace_in_english_and_a_daus_in_german():
    """RULES.md section 1: A = Daus/Sau in German; the English rules call it the Ace whatever
    the pack looks like (issue 29: the table said "Daus of Hearts" in English)."""
    with translation.override("en"), card_look("german"):
        assert card_name("AH") == "Ace of Hearts" and card_name("AC") == "Ace of Acorns"
    with translation.override("de"), card_look("german"):
        assert card_name("AH") == "Herz-Daus"
    for language, german_pack_ace in (("en", "Ace"), ("de", "Daus")):
        with translation.override(language):
            page = render_to_string("games/partials/labels.html")
        script = page.split('id="game-labels">', 1)[1].split("</script>", 1)[0]
        assert json.loads(script)["cards_names"]["german"]["ranks"]["A"] == german_pack_ace


def layout_deal(seed: int) -> Deal:
    return random_deal(4, Contract.ROSBIRATSCHKA, random.Random(seed), dealer=0)


def test_every_engine_refusal_has_its_reason_and_a_german_sentence():
    trick = random_deal(4, Contract.NO_TRICKS, random.Random(1), dealer=0)
    foreign = trick.hand((trick.turn + 1) % 4)[0].code
    cases = [
        (refusal(trick, "ZZ"), "not_a_move", "„ZZ“ ist keine Karte"),
        (refusal(trick, "pass"), "cannot_pass", "Du kannst nicht passen: Passen gibt es nur"),
        (refusal(trick, foreign), "not_held", "nicht auf der Hand."),
    ]
    layout = next(
        deal
        for deal in map(layout_deal, range(100))
        if "pass" not in {m.code for m in deal.legal_moves()}
    )
    cases.append((refusal(layout, "pass"), "pass_while_able", "solange Du eine Karte anlegen"))
    held = [c.code for c in layout.hand(layout.turn)]
    no_row = next(c for c in held if c[0] not in "J")
    cases.append((refusal(layout, no_row), "no_row", "passt an keine Reihe"))
    over = random_deal(4, Contract.NO_TRICKS, random.Random(3), dealer=0)
    over.play_out_randomly(random.Random(3).random)
    cases.append((refusal(over, "7H"), "deal_over", "Das Spiel ist schon zu Ende."))
    for error, reason, german in cases:
        assert error.reason == reason, error.message
        with translation.override("de"):
            assert german in illegal_move_text(error)


def test_extend_first_names_the_cards_that_extend_a_row():
    rules = HouseRules(layout="extend_first")
    for seed in range(300):
        deal = random_deal(4, Contract.ROSBIRATSCHKA, random.Random(seed), dealer=0, rules=rules)
        for _ in range(40):
            if deal.over:
                break
            hand = [c.code for c in deal.hand(deal.turn)]
            legal = {m.code for m in deal.legal_moves()}
            jacks = [c for c in hand if c[0] == "J" and c not in legal]
            if jacks and legal - {"pass"}:
                error = refusal(deal, jacks[0])
                assert error.reason == "must_extend"
                assert sorted(error.details["cards"]) == sorted(legal - {"pass"})
                with translation.override("de"):
                    assert illegal_move_text(error).startswith("Leg erst an eine Reihe an")
                return
            deal.play(sorted(legal)[0])
    raise AssertionError("no position where a Jack is held while another card must extend")


def test_an_unknown_reason_falls_back_to_the_engines_message():
    assert illegal_move_text(IllegalMove("deal not finished", 3)) == "deal not finished"


# --------------------------------------------------------------------------- actions


@pytest.mark.django_db
def test_service_refusals_follow_the_active_language():
    owner = UserFactory()
    table = lobby.create_table(owner=owner, size=3)
    with translation.override("de"), pytest.raises(events.ServiceError) as german:
        lobby.join_table(table.pk, owner)
    with translation.override("en"), pytest.raises(events.ServiceError) as english:
        lobby.join_table(table.pk, owner)
    assert german.value.code == english.value.code == "already_seated"
    assert str(german.value) == "Du hast an diesem Tisch schon einen Platz."
    assert str(english.value) == "You already have a seat at this table."


# --------------------------------------------------------------------------- over the socket


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
@pytest.mark.parametrize(
    ("cookie", "accept", "expected"),
    [
        ("de", "", "Du bist nicht dran: Jetzt spielt Platz"),
        (None, "de-DE,de;q=0.9,en;q=0.5", "Du bist nicht dran: Jetzt spielt Platz"),
        ("en", "de-DE,de;q=0.9", "It is not your turn: seat"),
        (None, "", "It is not your turn: seat"),
    ],
)
async def test_socket_refusals_use_the_pages_language(cookie, accept, expected):
    table, users = await database_sync_to_async(humans_table)(4)
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        if cookie is not None:
            viewer.communicator.scope["cookies"] = {"django_language": cookie}
        if accept:
            viewer.communicator.scope["headers"] = [(b"accept-language", accept.encode())]
        await viewer.connect()
    turn = viewers[0].state["deal"]["turn"]
    other = viewers[(turn + 1) % 4]
    before = await table_version(table.pk)

    answer = await other.move(other.state["deal"]["hand"][0])

    assert answer["type"] == "error" and answer["code"] == "not_your_turn"
    assert answer["message"].startswith(expected)
    assert answer["message"][len(expected) :].split()[0].strip(".") == str(turn)
    assert await table_version(table.pk) == before
    count = await database_sync_to_async(
        TableEvent.objects.filter(table_id=table.pk, kind="move").count
    )()
    assert count == 0
    for viewer in viewers:
        await viewer.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
async def test_an_illegal_card_is_explained_in_german_from_the_move_thread():
    table, users = await database_sync_to_async(humans_table)(4)
    viewers = [Viewer(user, table.pk) for user in users]
    for viewer in viewers:
        viewer.communicator.scope["cookies"] = {"django_language": "de"}
        await viewer.connect()
    turn = viewers[0].state["deal"]["turn"]
    foreign = viewers[(turn + 1) % 4].state["deal"]["hand"][0]

    answer = await viewers[turn].move(foreign)

    assert answer["code"] == "illegal"
    # The players' profiles keep the default German pack: "Herz-Ober", not "QH".
    with translation.override("de"), card_look("german"):
        assert answer["message"] == f"Du hast {card_name(foreign)} nicht auf der Hand."
    for viewer in viewers:
        await viewer.disconnect()
