"""Absolute links for messages read outside the site (e-mails)."""

from django.conf import settings


def absolute_url(path: str) -> str:
    """``path`` (as ``reverse()`` gives it) on the site's public address, ``SITE_URL``."""
    return settings.SITE_URL.rstrip("/") + path
