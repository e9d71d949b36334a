from django.urls import path

from tournaments import series_views, views, workspace_views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("clubs/<slug:slug>/calendar.ics", series_views.club_calendar, name="club_calendar"),
    path("clubs/<slug:slug>/series/", series_views.club_series, name="club_series"),
    path("clubs/<slug:slug>/series/new/", series_views.series_new, name="series_new"),
    path("series/<int:pk>/", series_views.series_edit, name="series_edit"),
    path("series/<int:pk>/skip/", series_views.series_skip, name="series_skip"),
    path("calendar/", series_views.my_calendar, name="my_calendar"),
    path("calendar/<str:token>.ics", series_views.player_calendar, name="player_calendar"),
    path("tables/<int:table_id>/sheet/", views.score_sheet, name="sheet"),
    path("sheets/<int:sheet_id>/confirm/", views.confirm_sheet, name="confirm_sheet"),
    path("tables/<int:table_id>/present/", views.confirm_presence, name="present"),
    # The organiser's workspace: before ``<slug:slug>/`` and ``<slug:slug>/<str:action>/``.
    path("organise/", workspace_views.organised_events, name="organised"),
    path("organise/new/", workspace_views.new_event, name="new_event"),
    path("<slug:slug>/organise/", workspace_views.workspace, name="workspace"),
    path("<slug:slug>/organise/edit/", workspace_views.edit_event, name="edit_event"),
    path(
        "<slug:slug>/organise/export/<str:what>.csv",
        workspace_views.export_csv,
        name="workspace_export",
    ),
    path(
        "<slug:slug>/organise/<str:action>/",
        workspace_views.workspace_action,
        name="workspace_action",
    ),
    path("<slug:slug>/", views.tournament_page, name="detail"),
    path("<slug:slug>/state.json", views.state_json, name="state"),
    path("<slug:slug>/bracket.svg", views.bracket_svg, name="bracket"),
    path("<slug:slug>/rounds/<int:number>/print/", views.print_round, name="print"),
    path("<slug:slug>/<str:action>/", views.tournament_action, name="action"),
]
