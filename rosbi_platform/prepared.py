"""Single-row reads of a user (with the profile) by one prepared statement.

Every signed-in request, every API token and every websocket handshake loads its user. Built
by the ORM, such a read spent about 1-5 ms of CPU in query construction and compilation, more
than the rest of a small request (``bench/api/inprocess.py``, ``bench/live_handshake.py``).
Here the SQL is written once from the models' metadata and the rows become instances through
``Model.from_db`` with every field's database converters, as the ORM builds them; callers
get ordinary model instances.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import connections
from django.db.models import Model

Part = tuple[type[Model], list[Any], int]


def select_list(models: list[tuple[type[Model], str]]) -> tuple[str, list[Part]]:
    """The quoted columns of each ``(model, table alias)`` in order, and where each model's
    columns start in a row."""
    parts: list[Part] = []
    columns: list[str] = []
    for model, alias in models:
        fields = list(model._meta.concrete_fields)
        parts.append((model, fields, len(columns)))
        columns += [f'{alias}."{field.column}"' for field in fields]
    return ", ".join(columns), parts


def instances(row: tuple, parts: list[Part], db_alias: str) -> list[Any]:
    """One instance per part of ``row``; a part whose columns are all NULL (an outer join
    that found nothing) gives None."""
    connection = connections[db_alias]
    built = []
    for model, fields, start in parts:
        raw = row[start : start + len(fields)]
        if all(value is None for value in raw):
            built.append(None)
            continue
        values = []
        for field, value in zip(fields, raw, strict=True):
            converters = connection.ops.get_db_converters(field.get_col(model._meta.db_table))
            for convert in converters + field.get_db_converters(connection):
                value = convert(value, None, connection)
            values.append(value)
        built.append(model.from_db(db_alias, [field.attname for field in fields], values))
    return built


def user_with_profile(user_id: Any, db_alias: str = "default") -> Any:
    """The user with this primary key, its profile attached when it has one; None when there
    is no such user."""
    pk = _user_pk(user_id)
    if pk is None:
        return None
    sql, _parts = _user_statement()
    with connections[db_alias].cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    return user_from_row(row, db_alias)


async def auser_with_profile(user_id: Any, db_alias: str = "default") -> Any:
    """`user_with_profile` on the event loop (`rosbi_platform.async_db`, the default database)."""
    from rosbi_platform import async_db

    pk = _user_pk(user_id)
    if pk is None:
        return None
    sql, _parts = _user_statement()
    return user_from_row(await async_db.fetch_one(sql, [pk]), db_alias)


def _user_pk(user_id: Any) -> Any:
    """The primary key a session or token names, or None when it is malformed."""
    from rosbi_platform.accounts.models import User

    try:
        return User._meta.pk.to_python(user_id)
    except Exception:  # noqa: BLE001 - a malformed id in a session is no user, as in Django
        return None


def user_from_row(row: tuple | None, db_alias: str = "default") -> Any:
    """The user (and profile) of one row of the user statement; None for no row."""
    if row is None:
        return None
    user, profile = instances(row, _user_statement()[1], db_alias)
    if profile is not None:
        user.profile = profile
    return user


@functools.cache
def _user_statement() -> tuple[str, list[Part]]:
    from rosbi_platform.accounts.models import Profile, User

    columns, parts = select_list([(User, "u"), (Profile, "p")])
    sql = (
        f"SELECT {columns} FROM {User._meta.db_table} u "
        f'LEFT JOIN {Profile._meta.db_table} p ON p."{Profile._meta.get_field("user").column}"'
        f' = u."{User._meta.pk.column}" WHERE u."{User._meta.pk.column}" = %s'
    )
    return sql, parts
