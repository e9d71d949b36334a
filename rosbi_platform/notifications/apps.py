from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "rosbi_platform.notifications"
    label = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        """Register this app's part of a person's data (export, deletion)."""
        from rosbi_platform.accounts.personal_data import register_section
        from rosbi_platform.notifications.personal_data import SECTION

        register_section(SECTION)
