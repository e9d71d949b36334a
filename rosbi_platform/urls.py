"""Top-level URL map; each app owns its own urls.py."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView
from rest_framework.routers import SimpleRouter

from games import api as games_api
from ratings import api as ratings_api
from rosbi_platform import views
from rosbi_platform.accounts import api as accounts_api
from rosbi_platform.accounts.admin_site import TwoFactorAdminSite
from rosbi_platform.api_docs import RedocDocsView, SwaggerDocsView
from tournaments import api as tournaments_api
from tournaments.club_urls import history_urlpatterns as history_urls

# Every admin session must have passed a second factor (django-otp's documented way to make the
# default site an OTPAdminSite, keeping every app's registrations); before the URLs
# below bind its views.
admin.site.__class__ = TwoFactorAdminSite

# API v1: each app owns its views (``<app>/api.py``); one router, no trailing slashes.
api_router = SimpleRouter(trailing_slash=False)
api_router.register("clubs", accounts_api.ClubViewSet, basename="club")
api_router.register("tables", games_api.TableViewSet, basename="table")
api_router.register("parties", games_api.PartieViewSet, basename="partie")
api_router.register("tournaments", tournaments_api.TournamentViewSet, basename="tournament")
api_router.register("round-tables", tournaments_api.RoundTableSheetViewSet, basename="round-table")
api_router.register("sheets", tournaments_api.SheetViewSet, basename="sheet")
api_router.register("notifications", tournaments_api.NoticeViewSet, basename="notification")
api_router.register("leaderboard", ratings_api.LeaderboardViewSet, basename="leaderboard")
api_router.register("players", ratings_api.PlayerViewSet, basename="player")
api_router.register("seasons", ratings_api.SeasonViewSet, basename="season")
api_router.register("series", tournaments_api.SeriesViewSet, basename="series")

api_v1 = [
    path("me", accounts_api.MeView.as_view(), name="me"),
    path("me/export", accounts_api.MeExportView.as_view(), name="me-export"),
    path("me/delete", accounts_api.MeDeleteView.as_view(), name="me-delete"),
    path("queue", ratings_api.QueueView.as_view(), name="queue"),
    path("queue/join", ratings_api.QueueJoinView.as_view(), name="queue-join"),
    path("queue/leave", ratings_api.QueueLeaveView.as_view(), name="queue-leave"),
    *api_router.urls,
]

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("healthz", views.healthz, name="healthz"),
    path(".well-known/security.txt", views.security_txt, name="security_txt"),
    path("accounts/", include("rosbi_platform.accounts.urls")),
    path("friends/", include("rosbi_platform.friends.urls")),
    path("notifications/", include("rosbi_platform.notifications.urls")),
    path("", include("games.urls")),  # /lobby/ and /tables/...
    path("tournaments/", include("tournaments.urls")),
    path("ladder/", include("ratings.urls")),
    path("clubs/", include("tournaments.club_urls")),
    path("players/", include((history_urls, "players"), namespace="players")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include((api_v1, "api"), namespace="api")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SwaggerDocsView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", RedocDocsView.as_view(url_name="api-schema"), name="api-redoc"),
    path("admin/", admin.site.urls),
]

handler400 = "rosbi_platform.views.bad_request"
handler404 = "rosbi_platform.views.not_found"
handler500 = "rosbi_platform.views.server_failure"

admin.site.site_header = "Rosbi"
admin.site.site_title = "Rosbi admin"

if settings.DEBUG:
    # Lets the error pages be looked at locally without turning DEBUG off.
    from django.views.defaults import page_not_found, server_error

    urlpatterns += [
        path("_errors/404/", page_not_found, {"exception": Exception("preview")}),
        path("_errors/500/", server_error),
    ]
