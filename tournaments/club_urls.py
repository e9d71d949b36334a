"""Club pages, mounted at /clubs/ (clear of tournaments/urls.py's catch-all)."""

from django.urls import path

from tournaments import club_views

app_name = "clubs"

urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("request/", club_views.request_club, name="request"),
    path("invite/<str:token>/", club_views.join_by_invite, name="invite"),
    path("<slug:slug>/", club_views.club_page, name="detail"),
    path("<slug:slug>/join/", club_views.request_membership, name="join"),
    path("<slug:slug>/leave/", club_views.leave_club, name="leave"),
    path("<slug:slug>/members/", club_views.members, name="members"),
    path("<slug:slug>/members/<int:user_id>/role/", club_views.change_role, name="role"),
    path("<slug:slug>/members/<int:user_id>/remove/", club_views.remove_member, name="remove"),
    path(
        "<slug:slug>/requests/<int:request_id>/<str:decision>/",
        club_views.decide_request,
        name="decide",
    ),
    path("<slug:slug>/invites/", club_views.create_invite, name="invite_create"),
    path(
        "<slug:slug>/invites/<int:invite_id>/revoke/",
        club_views.revoke_invite,
        name="invite_revoke",
    ),
    path("<slug:slug>/seasons/new/", club_views.season_new, name="season_new"),
    path("<slug:slug>/seasons/<int:pk>/", club_views.season_page, name="season"),
    path("<slug:slug>/seasons/<int:pk>/events/", club_views.season_event, name="season_event"),
    path(
        "<slug:slug>/seasons/<int:pk>/<str:action>/", club_views.season_action, name="season_action"
    ),
]

history_urlpatterns = [
    path("<str:username>/history/", club_views.player_history, name="history"),
]
