from django.urls import path

from rosbi_platform.notifications import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("<int:notification_id>/read/", views.mark_read, name="read"),
    path("read-all/", views.mark_all_read, name="read_all"),
    path("settings/", views.preferences, name="preferences"),
]
