"""Tournaments: deliberately small for now; the tournaments work extends it."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from rosbi_platform.accounts.models import Club


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments")
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=120, unique=True)
    description = models.TextField(_("description"), blank=True)
    starts_at = models.DateTimeField(_("starts at"))
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    table_size = models.PositiveSmallIntegerField(_("players per table"), default=4)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)

    class Meta:
        ordering = ["starts_at", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=3, table_size__lte=6),
                name="tournament_table_size_3_to_6",
            )
        ]

    def __str__(self) -> str:
        return self.name
