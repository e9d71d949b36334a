"""Tasks are queued by name after commit; the actions never import ``ratings.tasks``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ratings
from ratings import dispatch, recording
from rosbi_platform import celery_app
from tests.games.factories import UserFactory
from tests.ratings.factories import EPOCH, finished_partie, outcome_of

pytestmark = pytest.mark.django_db


def test_a_recorded_partie_queues_the_apply_task_by_name_only_after_commit(
    monkeypatch, django_capture_on_commit_callbacks
):
    sent = []
    monkeypatch.setattr(
        celery_app, "send_task", lambda name, args, **options: sent.append((name, args))
    )
    partie = finished_partie(UserFactory.create_batch(3), [5, 12, 20], EPOCH)
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    try:
        with django_capture_on_commit_callbacks(execute=True):
            recording.record_finished_partie(outcome_of(partie))
            assert sent == []
    finally:
        celery_app.conf.task_always_eager = eager
    assert sent == [(dispatch.APPLY_PENDING_RATINGS, ["ladder"])]


def test_only_the_tasks_module_imports_the_tasks_module():
    importers = []
    for path in Path(ratings.__file__).parent.rglob("*.py"):
        if path.name == "tasks.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names] + [node.module or ""]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n == "ratings.tasks" or n.startswith("ratings.tasks.") for n in names):
                importers.append(path.name)
    assert importers == []
