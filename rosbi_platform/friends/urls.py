from django.urls import path

from rosbi_platform.friends import views

app_name = "friends"

urlpatterns = [
    path("", views.friends_page, name="list"),
    path("<str:username>/follow/", views.follow, name="follow"),
    path("<str:username>/unfollow/", views.unfollow, name="unfollow"),
    path("<str:username>/block/", views.block, name="block"),
    path("<str:username>/unblock/", views.unblock, name="unblock"),
]
