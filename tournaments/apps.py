from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from games.signals import partie_finished

        # Registers the tasks in every process (web, worker, tests), so the actions' by-name
        # ``tournaments.common.enqueue`` finds them (and runs them eagerly in tests).
        from tournaments import tasks  # noqa: F401

        partie_finished.connect(
            _on_partie_finished, dispatch_uid="tournaments.record_partie_result"
        )
        # An entrant who has not confirmed an entry an organiser made is not rated.
        from ratings.recording import add_unrated_rule
        from tournaments.selectors import unconfirmed_players

        add_unrated_rule(unconfirmed_players)


def _on_partie_finished(sender, outcome, **kwargs) -> None:
    """Record a tournament table's result; everything else is queued after the commit."""
    if outcome.tournament_round_id is None:
        return
    from tournaments.results import record_partie_result

    record_partie_result(outcome)
