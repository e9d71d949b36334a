from django.urls import path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("", views.ladder, name="ladder"),
    path("help/", views.rating_help, name="help"),
    path("queue/join/", views.join_queue, name="queue_join"),
    path("queue/leave/", views.leave_queue, name="queue_leave"),
    path("queue/status.json", views.queue_status, name="queue_status"),
    path("players/<str:username>/", views.player, name="player"),
    path("seasons/<int:season_id>/", views.season, name="season"),
    path("collusion/", views.collusion, name="collusion"),
]
