from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FriendsConfig(AppConfig):
    name = "rosbi_platform.friends"
    label = "friends"
    verbose_name = _("Friends and blocks")

    def ready(self) -> None:
        """Register this app's part of a person's data (export, deletion)."""
        from rosbi_platform.accounts.personal_data import register_section
        from rosbi_platform.friends.personal_data import SECTION

        register_section(SECTION)
