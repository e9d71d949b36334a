from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "rosbi_platform.accounts"
    label = "accounts"
    verbose_name = _("Accounts and clubs")

    def ready(self) -> None:
        """Accounts' part of a person's data (export, deletion): see ``personal_data``."""
        from rosbi_platform.accounts import deletion, selectors, two_factor
        from rosbi_platform.accounts.personal_data import DataSection, register_section

        register_section(
            DataSection(
                name="accounts",
                export=selectors.account_export,
                covers=(
                    "accounts.Profile.user",
                    "accounts.Club.members",
                    "accounts.ClubMembership.user",
                    "accounts.ClubRequest.requested_by",
                    "accounts.MembershipRequest.user",
                    "accounts.ClubInvite.created_by",
                    "accounts.AccessToken.user",
                    "accounts.ClubRemoval.user",
                ),
                excludes={
                    "accounts.ClubRequest.decided_by": "a moderator's decision on another "
                    "person's request for a club: that request is the requester's data",
                    "accounts.MembershipRequest.decided_by": "an organiser's decision on "
                    "another person's request to join: that request is the requester's data",
                    "accounts.ClubRemoval.removed_by": "an owner's decision to remove another "
                    "member: the removal is the removed member's data",
                    "admin.LogEntry.user": "the admin's record of what staff changed, kept for "
                    "the site's accountability; it holds the changed objects, not the person's",
                },
                refusal=deletion.last_owner_refusal,
                erase=deletion.erase_account_data,
            )
        )
        register_section(
            DataSection(
                name="two_factor",
                export=two_factor.two_factor_export,
                covers=("otp_totp.TOTPDevice.user", "otp_static.StaticDevice.user"),
                erase=two_factor.reset_two_factor,
            )
        )
