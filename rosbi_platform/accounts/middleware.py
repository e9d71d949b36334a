"""Show dates in each signed-in player's own time zone."""

import zoneinfo

from django.utils import timezone

from rosbi_platform.accounts.models import Profile


class UserTimezoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.profile.time_zone))
            except (Profile.DoesNotExist, zoneinfo.ZoneInfoNotFoundError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        return self.get_response(request)
