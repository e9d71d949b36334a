from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        """Record every finished rated Partie as a rating job (the task applies it later)."""
        from games.signals import partie_finished
        from ratings.receivers import on_partie_finished

        partie_finished.connect(on_partie_finished, dispatch_uid="ratings.record_finished_partie")
