"""Top-level URL map; each app owns its own urls.py."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from rosbi_platform import views

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/", include("rosbi_platform.accounts.urls")),
    path("friends/", include("rosbi_platform.friends.urls")),
    path("", include("games.urls")),  # /lobby/ and /tables/...
    path("tournaments/", include("tournaments.urls")),
    path("ladder/", include("ratings.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("admin/", admin.site.urls),
]

admin.site.site_header = "Rosbi"
admin.site.site_title = "Rosbi admin"

if settings.DEBUG:
    # Lets the error pages be looked at locally without turning DEBUG off.
    from django.views.defaults import page_not_found, server_error

    urlpatterns += [
        path("_errors/404/", page_not_found, {"exception": Exception("preview")}),
        path("_errors/500/", server_error),
    ]
