"""The example bot (examples/bot.py: standard library plus websockets) plays whole Parties
against the live server as bot accounts with tokens: tables created and joined over the API,
moves over the documented websocket protocol without a browser (no Origin, no cookie)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.models import Partie, SeatResult
from rosbi_platform.accounts import tokens
from rosbi_platform.accounts.services import mark_as_bot
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.redis]
REPO_ROOT = Path(__file__).resolve().parents[2]


def bot_token(name: str) -> str:
    bot = UserFactory(username=name)
    mark_as_bot(bot)
    return tokens.create_token(bot, "example", ["read", "play"]).secret


def start_bot(server: str, secret: str, log: Path, *where: str) -> subprocess.Popen:
    command = [sys.executable, str(REPO_ROOT / "examples" / "bot.py"), "--server", server]
    command += ["--token", secret, "--pace", "0", "--seed", "1", "--verbose", *where]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log.open("w"), text=True)


def finish(bot: subprocess.Popen, log: Path) -> dict:
    """The bot's summary line once it has exited; its frame trace when it failed."""
    try:
        out, _ = bot.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        bot.kill()
        pytest.fail(f"the bot did not finish; its frames:\n{log.read_text()[-3000:]}")
    assert bot.returncode == 0, log.read_text()[-3000:]
    return json.loads(out.strip().splitlines()[-1])


def test_three_example_bots_play_a_whole_partie_together(asgi_live_server, tmp_path):
    """Bot accounts only: one creates a table that allows bots and starts it once the two
    others have joined; every move comes from examples/bot.py."""
    server = asgi_live_server.url
    logs = [tmp_path / f"bot{n}.log" for n in range(3)]
    creator = start_bot(
        server, bot_token("examplebot0"), logs[0], "--create", "--size", "3", "--start-when-full"
    )
    table_id = creator.stdout.readline().split()[-1]  # "examplebot0 at table 12"
    joiners = [
        start_bot(server, bot_token(f"examplebot{n}"), logs[n], "--table", table_id) for n in (1, 2)
    ]
    summaries = [finish(creator, logs[0])] + [
        finish(bot, log) for bot, log in zip(joiners, logs[1:], strict=True)
    ]

    partie = Partie.objects.get(table_id=int(table_id))
    assert partie.finished_at is not None and partie.deals.count() == 6
    results = SeatResult.objects.filter(partie=partie).order_by("seat")
    names = [r.user.username for r in results]
    # The creator sits at seat 0; the two joiners take the free seats in whichever order
    # their requests arrive.
    assert names[0] == "examplebot0" and sorted(names) == [
        "examplebot0",
        "examplebot1",
        "examplebot2",
    ]
    for summary in summaries:
        assert summary["status"] == "finished"
        assert summary["totals"] == [r.total for r in results]
