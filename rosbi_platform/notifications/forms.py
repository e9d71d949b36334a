"""The switches form: per kind, on the site and by e-mail."""

from __future__ import annotations

from typing import Any

from django import forms

from rosbi_platform.notifications.selectors import Choice


class ChoicesForm(forms.Form):
    """Two check boxes per switch, named ``<kind>-site`` and ``<kind>-email``."""

    def __init__(self, *args: Any, choices: list[Choice], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rows = choices
        for choice in choices:
            self.fields[f"{choice.kind}-site"] = forms.BooleanField(
                required=False, initial=choice.on_site, label=choice.label
            )
            self.fields[f"{choice.kind}-email"] = forms.BooleanField(
                required=False, initial=choice.email, label=choice.label
            )

    def table(self) -> list[tuple[Choice, forms.BoundField, forms.BoundField]]:
        return [(c, self[f"{c.kind}-site"], self[f"{c.kind}-email"]) for c in self.rows]

    def chosen(self) -> dict[str, tuple[bool, bool]]:
        data = self.cleaned_data
        return {c.kind: (data[f"{c.kind}-site"], data[f"{c.kind}-email"]) for c in self.rows}
