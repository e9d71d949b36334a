"""Lobby and table pages (mounted at the site root by rosbi_platform/urls.py)."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("lobby/", views.lobby, name="lobby"),
    path("lobby/tables.json", views.tables_json, name="tables_json"),
    path("tables/new/", views.create_table, name="create"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("tables/<int:table_id>/join/", views.join_table, name="join"),
    path("tables/<int:table_id>/leave/", views.leave_table, name="leave"),
    path("tables/<int:table_id>/start/", views.start_table, name="start"),
    path("tables/<int:table_id>/resign/", views.resign, name="resign"),
    path("tables/<int:table_id>/abort/", views.abort, name="abort"),
    path("tables/<int:table_id>/rematch/", views.rematch, name="rematch"),
    path("tables/<int:table_id>/rematch/decline/", views.decline_rematch, name="decline_rematch"),
    path("tables/<int:table_id>/invite/", views.invite, name="invite"),
    path(
        "tables/<int:table_id>/invitation/decline/",
        views.decline_invitation,
        name="decline_invitation",
    ),
    path("tables/<int:table_id>/replay/", views.replay, name="replay"),
    path("tables/<int:table_id>/record.json", views.record_json, name="record"),
]
