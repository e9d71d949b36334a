"""Write the answers the site gives now into the table of docs/security.md (a tool, not a
test: pytest collects it only when named on the command line).

    pytest -p no:cacheprovider tests/platform/matrix_observe.py

Run it after a change of the permission model, then read ``git diff docs/security.md``: every
changed cell is a change of who may do what, to be meant, not merely accepted. New pages and
operations must first get a row (test_permission_matrix.py says which).
"""

from __future__ import annotations

import re

import pytest

from tests.platform.test_permission_matrix import (  # noqa: F401 (the fixture)
    DOC,
    ROLES,
    ROWS,
    ask,
    classify,
    world,
)


@pytest.mark.django_db
def test_write_the_observed_answers_into_the_documented_table(world) -> None:  # noqa: F811
    observed = {row.key: [classify(ask(world, row, role)) for role in ROLES] for row in ROWS}
    lines = DOC.read_text(encoding="utf-8").splitlines()
    by_key = {row.key: row for row in ROWS}
    written = 0
    for index, line in enumerate(lines):
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        match = re.fullmatch(r"`(\w+) (\S+)`", cells[0]) if line.startswith("|") else None
        if match is None:
            continue
        target = cells[1].strip("_ ") if cells[1] not in ("", "—") else ""
        key = f"{match[1]} {match[2]}" + (f" [{target}]" if target else "")
        if key in by_key:
            lines[index] = "| " + " | ".join([*cells[:2], *observed[key]]) + " |"
            written += 1
    DOC.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert written == len(ROWS)
