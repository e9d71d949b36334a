"""A score sheet's problems (``tournaments.sheets``) worded for people, and the contract names
the print-outs and the sheet form show."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.contract_names import CONTRACT_NAMES
from tournaments import sheets
from tournaments.sheets import SheetProblem

_SHEET_PROBLEMS = {
    sheets.UNKNOWN_CONTRACT: gettext_lazy("Deal %(deal)s: unknown contract %(contract)s."),
    sheets.WRONG_COUNT: gettext_lazy(
        "Deal %(deal)s (%(contract)s): %(values)s values for %(players)s players."
    ),
    sheets.NOT_WHOLE: gettext_lazy("Deal %(deal)s (%(contract)s): penalties are whole numbers."),
    sheets.ONE_PLAYER_EIGHT: gettext_lazy(
        "Deal %(deal)s (%(contract)s): exactly one player scores 8, everyone else 0."
    ),
    sheets.HUNDRED_CALLS_SPLIT: gettext_lazy(
        "Deal %(deal)s (%(contract)s): the calls 1, 2 and 5 go to one player each "
        "(values from 0, 1, 2, 3, 5, 6, 7, 8 that add up to 8)."
    ),
    sheets.WRONG_DEAL_COUNT: gettext_lazy("A score sheet has %(expected)s deals, not %(deals)s."),
}


def sheet_problem_text(problem: SheetProblem) -> str:
    """One problem of ``sheets.sheet_errors`` as a sentence in the active language."""
    contract = problem.contract or ""
    values: dict[str, Any] = {
        "deal": problem.deal if problem.deal is not None else "?",
        "contract": CONTRACT_NAMES.get(contract, contract),
        **problem.params,
    }
    if problem.code == sheets.IMPOSSIBLE_ROW:
        if problem.params.get("doubled"):
            text = _(
                "Deal %(deal)s (%(contract)s): these penalties cannot come from one deal "
                "(total %(total)s, doubled %(doubled)s, or a slam: %(slam)s)."
            )
        else:
            text = _(
                "Deal %(deal)s (%(contract)s): these penalties cannot come from one deal "
                "(total %(total)s or a slam: %(slam)s)."
            )
        return text % values
    return str(_SHEET_PROBLEMS[problem.code]) % values
