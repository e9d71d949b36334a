"""Forms of the tournament pages: the physical score sheet."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.sheet_texts import CONTRACT_NAMES
from tournaments.sheets import CONTRACTS


class ScoreSheetForm(forms.Form):
    """Six deals x seats of whole numbers; the rules check happens in the service."""

    def __init__(self, *args, seats: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for deal, contract in enumerate(CONTRACTS):
            for seat in range(seats):
                self.fields[f"d{deal}s{seat}"] = forms.IntegerField(
                    label=_("%(contract)s, seat %(seat)s")
                    % {"contract": CONTRACT_NAMES[contract], "seat": seat},
                    min_value=-8,
                    max_value=18,
                )

    def penalties(self) -> list[list[int]]:
        return [
            [self.cleaned_data[f"d{deal}s{seat}"] for seat in range(self.seats)]
            for deal in range(len(CONTRACTS))
        ]

    def rows(self) -> list[tuple[str, list[forms.BoundField]]]:
        """Per deal the contract's name in the active language and the seats' fields."""
        return [
            (CONTRACT_NAMES[contract], [self[f"d{deal}s{seat}"] for seat in range(self.seats)])
            for deal, contract in enumerate(CONTRACTS)
        ]
