from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # Register the games tasks in every process (web, ASGI, worker): ``games.queue`` looks
        # them up by name in the Celery app to queue them.
        from games import tasks  # noqa: F401

        # This app's part of a person's data (export, deletion): accounts.personal_data.
        from games.personal_data import SECTION
        from rosbi_platform.accounts.personal_data import register_section

        register_section(SECTION)
