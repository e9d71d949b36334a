"""Recompute from history equals the incremental result, seasons and late arrivals included."""

from __future__ import annotations

import datetime as dt
import random
from io import StringIO

import pytest
from django.core.management import call_command

from ratings import recording, replay, seasons, storage, updates
from ratings.models import PlayerRating, RatedPartie, RatingChange
from tests.games.factories import UserFactory
from tests.ratings.factories import BOT, EPOCH, finished_partie, outcome_of

pytestmark = pytest.mark.django_db


def snapshot() -> tuple[dict, dict]:
    ratings = {
        r.user_id: (r.mu, r.sigma, r.games, r.last_played) for r in PlayerRating.objects.all()
    }
    changes = {
        (c.partie_id, c.user_id): (c.mu_before, c.mu_after, c.sigma_after, c.place, c.left)
        for c in RatingChange.objects.all()
    }
    return ratings, changes


def record(partie) -> None:
    recording.record_finished_partie(outcome_of(partie))


def test_recompute_equals_incremental_with_bots_leavers_late_parties_and_a_season():
    rng = random.Random(20261130)
    users = UserFactory.create_batch(8)
    parties = []
    for i in range(40):
        size = rng.randint(3, 6)
        players: list = rng.sample(users, k=rng.randint(2, size))
        players += [BOT] * (size - len(players))
        rng.shuffle(players)
        humans = [n for n, p in enumerate(players) if p != BOT]
        left = {rng.choice(humans)} if rng.random() < 0.15 else set()
        totals = [rng.randint(0, 60) for _ in players]
        finished_at = EPOCH + dt.timedelta(days=i // 4, minutes=rng.randint(0, 600))
        parties.append(finished_partie(players, totals, finished_at, left=left))
    parties.sort(key=lambda p: (p.finished_at, p.pk))
    # Incremental: mostly in order, every fifth Partie handed off late (after its successor),
    # and the season closes in the middle.
    season_close = EPOCH + dt.timedelta(days=5, hours=12)
    order = list(parties)
    for i in range(0, len(order) - 1, 5):
        order[i], order[i + 1] = order[i + 1], order[i]
    closed = False
    for partie in order:
        if not closed and partie.finished_at > season_close:
            updates.apply_pending_ratings()
            seasons.close_season(now=season_close)
            closed = True
        record(partie)
        updates.apply_pending_ratings()
    incremental = snapshot()
    assert RatedPartie.objects.filter(status=RatedPartie.Status.PENDING).count() == 0
    assert len(incremental[1]) == RatingChange.objects.count() > 100

    assert (
        updates.recompute_all_ratings()
        == RatedPartie.objects.exclude(status=RatedPartie.Status.SKIPPED).count()
    )
    assert snapshot() == incremental
    # And recompute is deterministic: a second run gives the very same rows.
    updates.recompute_all_ratings()
    assert snapshot() == incremental


def test_recompute_command_prints_a_progress_bar_and_restores_tampered_ratings():
    users = UserFactory.create_batch(4)
    for i in range(6):
        record(finished_partie(users, [i, 10, 20 - i, 30], EPOCH + dt.timedelta(hours=i)))
    updates.apply_pending_ratings()
    expected = snapshot()
    PlayerRating.objects.filter(user=users[0]).update(mu=2400.0, games=99)
    out, err = StringIO(), StringIO()
    call_command("recompute_ratings", stdout=out, stderr=err)
    assert "Recomputed 6 rated Parties" in out.getvalue()
    assert "[" + "#" * 30 + "] 6/6 Parties" in err.getvalue()
    assert snapshot() == expected


def test_recompute_drops_the_changes_of_a_partie_taken_out_of_history():
    users = UserFactory.create_batch(4)
    parties = [
        finished_partie(users, [i, 10, 20, 30 - i], EPOCH + dt.timedelta(hours=i)) for i in range(4)
    ]
    for partie in parties:
        record(partie)
    updates.apply_pending_ratings()
    # Staff void the second Partie (say, proven collusion): it no longer counts.
    RatedPartie.objects.filter(partie=parties[1]).update(status=RatedPartie.Status.SKIPPED)
    assert updates.recompute_all_ratings() == 3
    assert not RatingChange.objects.filter(partie=parties[1]).exists()
    assert RatingChange.objects.count() == 12
    assert {r.games for r in PlayerRating.objects.all()} == {3}
    chain = list(RatingChange.objects.filter(user=users[0]).order_by("finished_at"))
    assert [c.partie_id for c in chain] == [parties[0].pk, parties[2].pk, parties[3].pk]
    assert chain[0].mu_after == chain[1].mu_before


def test_a_rerun_rewrites_no_rating_change_and_restores_tampered_ones():
    users = UserFactory.create_batch(5)
    parties = [
        finished_partie(
            users[i % 2 : i % 2 + 4], [i, 10, 20, 30 - i], EPOCH + dt.timedelta(hours=i)
        )
        for i in range(6)
    ]
    for partie in parties:
        record(partie)
    updates.apply_pending_ratings()
    expected = snapshot()
    ids = dict(RatingChange.objects.values_list("pk", "mu_after"))
    # An unchanged history: every stored row is kept as it is (same primary keys).
    updates.recompute_all_ratings()
    assert dict(RatingChange.objects.values_list("pk", "mu_after")) == ids
    assert snapshot() == expected
    # Tampered and missing rows are repaired: a tampered row in place (it keeps its primary
    # key, whichever column differs), a missing one inserted again.
    first, second, third = RatingChange.objects.order_by("pk")[:3]
    RatingChange.objects.filter(pk=first.pk).update(mu_after=first.mu_after + 1e-9)
    RatingChange.objects.filter(pk=second.pk).update(
        finished_at=second.finished_at + dt.timedelta(seconds=1), left=True, seat=5
    )
    RatingChange.objects.filter(pk=third.pk).delete()
    updates.recompute_all_ratings()
    assert snapshot() == expected
    assert RatingChange.objects.get(pk=second.pk).finished_at == second.finished_at
    kept = set(RatingChange.objects.values_list("pk", flat=True))
    assert set(ids) - {third.pk} <= kept
    assert third.pk not in kept and len(kept) == len(ids)


def history_index_exists() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, RatingChange._meta.db_table)
    index = constraints.get(storage.HISTORY_INDEX)
    return bool(index and index["index"] and index["columns"] == ["user_id", "pool", "finished_at"])


def test_a_bulk_insert_rebuilds_the_history_index_and_a_failure_restores_it(monkeypatch):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    monkeypatch.setattr(storage, "REBUILD_INDEX_ABOVE", 1)  # every bulk insert counts here
    users = UserFactory.create_batch(4)
    for i in range(5):
        record(finished_partie(users, [i, 10, 20 - i, 30], EPOCH + dt.timedelta(hours=i)))
    with CaptureQueriesContext(connection) as incremental:
        updates.apply_pending_ratings()
    # The incremental task never rebuilds the index (it would scan the whole table).
    assert not [q for q in incremental.captured_queries if "DROP INDEX" in q["sql"]]
    expected = snapshot()
    assert history_index_exists()
    RatingChange.objects.all().delete()
    with CaptureQueriesContext(connection) as recompute:
        updates.recompute_all_ratings()
    rebuilt = [q["sql"] for q in recompute.captured_queries if "INDEX" in q["sql"]]
    assert [sql.split()[0] for sql in rebuilt] == ["DROP", "CREATE"]
    assert snapshot() == expected
    assert history_index_exists()

    # A failure after the insert rolls everything back, the dropped index included.
    RatingChange.objects.all().delete()

    def fail(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(storage, "write_states", fail)
    with pytest.raises(RuntimeError):
        updates.recompute_all_ratings()
    assert history_index_exists()
    assert not RatingChange.objects.exists()


def test_stored_changes_keep_every_bit_of_the_replay_in_any_pool_name():
    """The bulk writer (COPY text) loses nothing: each change equals the in-memory replay, and a pool name with COPY's special characters is
    stored verbatim."""
    pool = "odd\tpool\\name\n"
    users = UserFactory.create_batch(5)
    for i in range(8):
        partie = finished_partie(
            users[i % 2 : i % 2 + 4],
            [i * 1.0, 10, 20 + i, 30 - i],
            EPOCH + dt.timedelta(hours=i, microseconds=7 * i),
        )
        record(partie)
    RatedPartie.objects.update(pool=pool)
    assert updates.apply_pending_ratings(pool) == 8
    jobs = storage.read_jobs(RatedPartie.objects.filter(pool=pool))
    replayed = replay.replay_jobs(jobs, {}, [])
    stored = {(c.partie_id, c.user_id): c for c in RatingChange.objects.filter(pool=pool)}
    assert len(stored) == len(replayed) == 32
    for row in replayed:
        change = stored[row[0], row[1]]
        assert (
            change.finished_at,
            change.seat,
            change.total,
            change.place,
            change.left,
            change.mu_before.hex(),
            change.sigma_before.hex(),
            change.games_before,
            change.last_played_before,
            change.mu_after.hex(),
            change.sigma_after.hex(),
        ) == (*row[2:7], row[7].hex(), row[8].hex(), row[9], row[10], row[11].hex(), row[12].hex())
    for user in users:
        last = RatingChange.objects.filter(user=user).order_by("-finished_at").first()
        assert PlayerRating.objects.get(user=user, pool=pool).mu == last.mu_after


def test_a_first_run_written_in_several_pieces_equals_incremental(monkeypatch):
    """A first run is streamed to the server every ``STREAM_JOBS`` Parties (here 3,
    with a season closing in between); the stored result is the incremental one."""
    monkeypatch.setattr(storage, "STREAM_JOBS", 3)
    monkeypatch.setattr(storage, "REBUILD_INDEX_ABOVE", 1)
    users = UserFactory.create_batch(6)
    for i in range(14):
        if i == 7:
            updates.apply_pending_ratings()
            seasons.close_season(now=EPOCH + dt.timedelta(hours=6, minutes=30))
        players = users[i % 3 : i % 3 + 3] + ([BOT] if i % 4 == 0 else [])
        record(
            finished_partie(
                players, [i, 12, 30 - i, 5][: len(players)], EPOCH + dt.timedelta(hours=i)
            )
        )
        updates.apply_pending_ratings()
    expected = snapshot()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatedPartie.objects.update(status=RatedPartie.Status.PENDING, applied_at=None)

    assert updates.recompute_all_ratings() == 14
    assert snapshot() == expected
    assert not RatedPartie.objects.filter(status=RatedPartie.Status.PENDING).exists()
    assert history_index_exists()


@pytest.mark.django_db(transaction=True)
def test_a_first_run_refused_by_the_database_leaves_everything_as_it_was(monkeypatch):
    """A rating change the database refuses (here: a player id that does not exist) fails the
    whole recompute, refused by the server during the streamed COPY: no change stored, no job
    marked applied, the index back, no thread left."""
    import threading

    from django.db import IntegrityError

    monkeypatch.setattr(storage, "STREAM_JOBS", 2)
    monkeypatch.setattr(storage, "REBUILD_INDEX_ABOVE", 1)
    users = UserFactory.create_batch(4)
    for i in range(6):
        record(finished_partie(users, [i, 10, 20 - i, 30], EPOCH + dt.timedelta(hours=i)))
    job = RatedPartie.objects.order_by("finished_at")[3]
    job.participants[0]["user_id"] = 10**9
    job.save(update_fields=["participants"])

    written = []
    write_states = storage.write_states
    monkeypatch.setattr(
        storage, "write_states", lambda *a, **k: written.append(1) or write_states(*a, **k)
    )
    with pytest.raises(IntegrityError):
        updates.recompute_all_ratings()
    # Refused in the streamed COPY, before any rating is written.
    assert written == []
    assert not RatingChange.objects.exists()
    assert not PlayerRating.objects.exists()
    assert RatedPartie.objects.filter(status=RatedPartie.Status.PENDING).count() == 6
    assert history_index_exists()
    assert not [t for t in threading.enumerate() if t.name == "recompute-copy"]


def temporary_tables_left() -> list[str]:
    """The rerun's temporary tables still visible to this session."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_class WHERE relpersistence = 't' AND relname IN (%s, %s)",
            [storage.PIECE_TABLE, storage.SEEN_TABLE],
        )
        return [name for (name,) in cursor.fetchall()]


def join_methods() -> list[str]:
    """The planner settings a rerun switches off for its merges."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('enable_hashjoin'), current_setting('enable_mergejoin')"
        )
        return list(cursor.fetchone())


def rerate_recorded_bots(mu: float) -> None:
    """Another rating for every recorded bot seat (a bot seat's rating is frozen into its
    rated Partie, so this is how the rules of the history change under the rerun)."""
    for job in RatedPartie.objects.all():
        for person in job.participants:
            if person["user_id"] is None:
                person["bot_mu"] = mu
        job.save(update_fields=["participants"])


def rated_history_with_bots(users: list, count: int) -> list:
    parties = []
    for i in range(count):
        fourth = users[(i % 3 + 3 + i // 3 % 3) % 6]  # one of the three not in the slice
        players = users[i % 3 : i % 3 + 3] + ([BOT] if i % 3 == 0 else [fourth])
        parties.append(
            finished_partie(players, [i, 12, 30 - i, 5 + i % 7], EPOCH + dt.timedelta(hours=i))
        )
        record(parties[-1])
    updates.apply_pending_ratings()
    return parties


def test_a_rerun_after_a_change_of_the_rating_parameters_updates_the_changes_in_place(monkeypatch):
    """Another rating of every recorded bot seat changes nearly every stored change: the rerun (merged piece by
    piece, here 3 Parties a piece) updates them in place, keeping their primary
    keys, deletes the changes of a voided Partie, inserts a missing one, and ends exactly
    where a first run under the new parameters ends."""
    monkeypatch.setattr(storage, "STREAM_JOBS", 3)
    users = UserFactory.create_batch(6)
    parties = rated_history_with_bots(users, 14)
    before = dict(RatingChange.objects.values_list("pk", "mu_after"))
    keys = {(c.partie_id, c.user_id): c.pk for c in RatingChange.objects.all()}
    RatedPartie.objects.filter(partie=parties[5]).update(status=RatedPartie.Status.SKIPPED)
    missing = RatingChange.objects.filter(partie=parties[9]).first()
    missing.delete()
    hash_join_before = join_methods()

    rerate_recorded_bots(1750.0)
    assert updates.recompute_all_ratings() == 13
    rerun = snapshot()
    after = {(c.partie_id, c.user_id): c.pk for c in RatingChange.objects.all()}
    # Rewritten in place: every change that still counts keeps its primary key.
    voided = {key for key in keys if key[0] == parties[5].pk}
    assert voided and not voided & set(after)
    kept = set(keys) - voided - {(missing.partie_id, missing.user_id)}
    assert {key: after[key] for key in kept} == {key: keys[key] for key in kept}
    assert (missing.partie_id, missing.user_id) in after
    changed = sum(
        before.get(pk) != mu for pk, mu in RatingChange.objects.values_list("pk", "mu_after")
    )
    assert changed > len(after) // 2
    assert temporary_tables_left() == []
    assert join_methods() == hash_join_before

    # The same as a first run under the new parameters.
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    assert updates.recompute_all_ratings() == 13
    assert snapshot() == rerun


@pytest.mark.django_db(transaction=True)
def test_a_rerun_refused_by_the_database_leaves_everything_as_it_was(monkeypatch):
    """A rerun whose changes the database refuses (a player id that does not exist, in a
    piece after others were already merged) rolls back whole: the stored
    changes and ratings as they were, no temporary table, no thread left."""
    import threading

    from django.db import IntegrityError

    monkeypatch.setattr(storage, "STREAM_JOBS", 2)
    users = UserFactory.create_batch(6)
    rated_history_with_bots(users, 8)
    stored = snapshot()
    ids = set(RatingChange.objects.values_list("pk", flat=True))
    job = RatedPartie.objects.order_by("finished_at")[5]
    job.participants[0]["user_id"] = 10**9
    job.save(update_fields=["participants"])

    rerate_recorded_bots(1750.0)  # and every other change would be rewritten
    with pytest.raises(IntegrityError):
        updates.recompute_all_ratings()
    assert snapshot() == stored
    assert set(RatingChange.objects.values_list("pk", flat=True)) == ids
    assert temporary_tables_left() == []
    assert not [t for t in threading.enumerate() if t.name == "recompute-copy"]
