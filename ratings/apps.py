from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        """Record every finished rated Partie as a rating job (the task applies it later),
        answer games' "may this person play rated?" and keep the moderators group after
        migrations."""
        from django.db.models.signals import post_migrate

        from games.rated_play import set_rated_play_check
        from games.signals import partie_finished
        from ratings.eligibility import rated_play_refusal
        from ratings.permissions import on_post_migrate
        from ratings.receivers import on_partie_finished

        # The one "may this person play rated now?" check, asked by games' rated seats too.
        set_rated_play_check(rated_play_refusal)
        partie_finished.connect(on_partie_finished, dispatch_uid="ratings.record_finished_partie")
        # The moderators group (who may see IP addresses), kept after every migrate and flush.
        post_migrate.connect(on_post_migrate, sender=self, dispatch_uid="ratings.moderators")
