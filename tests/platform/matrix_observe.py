"""Write the answers the site gives now into the table of docs/security.md (a tool, not a
test: pytest collects it only when named on the command line).

    pytest -p no:cacheprovider tests/platform/matrix_observe.py
    git diff docs/security.md

Run it after a change of the permission model, then read the diff: every changed cell is a
change of who may do what, to be meant, not merely accepted. Pages and API operations that
have no row yet are added at the end of the table under "New", asked with GET (pages) or their
method; move each into its group, make a POST row of a page that takes only a form, and give
an address with parameters its line in ``PAGE_KWARGS`` (test_permission_matrix.py): until then
its cells say ``?`` (the request could not be made), which the test refuses.
"""

from __future__ import annotations

import re

import pytest

from tests.platform.test_permission_matrix import (  # noqa: F401 (the fixture)
    DOC,
    ROLES,
    ROWS,
    Row,
    api_operations,
    api_schema,
    ask,
    classify,
    page_routes,
    world,
)


def new_rows() -> list[Row]:
    """Rows for the pages and operations the table does not name yet."""
    documented_pages = {row.route for row in ROWS}
    documented_operations = {f"{row.method} {row.route}" for row in ROWS}
    rows = [Row("GET", route, "", {}) for route in sorted(page_routes() - documented_pages)]
    for operation in sorted(api_operations(api_schema()) - documented_operations):
        method, route = operation.split(" ", 1)
        rows.append(Row(method, route, "", {}))
    return rows


def answer(world, row: Row, role: str) -> str:  # noqa: F811
    try:
        return classify(ask(world, row, role))
    except Exception:  # noqa: BLE001 (a new address without its parameters: "?")
        return "?"


def line_of(row: Row, cells: list[str]) -> str:
    return "| " + " | ".join([f"`{row.method} {row.route}`", row.target or "—", *cells]) + " |"


@pytest.mark.django_db
def test_write_the_observed_answers_into_the_documented_table(world) -> None:  # noqa: F811
    observed = {row.key: [answer(world, row, role) for role in ROLES] for row in ROWS}
    lines = DOC.read_text(encoding="utf-8").splitlines()
    by_key = {row.key: row for row in ROWS}
    last = 0
    for index, line in enumerate(lines):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`(\w+) (\S+)`", cells[0]) if line.startswith("|") else None
        if match is None:
            continue
        target = cells[1].strip("_ ") if cells[1] not in ("", "—") else ""
        key = f"{match[1]} {match[2]}" + (f" [{target}]" if target else "")
        if key in by_key:
            lines[index] = line_of(by_key[key], observed[key])
            last = index
    added = [line_of(row, [answer(world, row, role) for role in ROLES]) for row in new_rows()]
    if added:
        lines[last + 1 : last + 1] = ["| **New: move each row into its group** |" + " |" * 9]
        lines[last + 2 : last + 2] = added
    DOC.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert last > 0
