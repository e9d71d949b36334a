from django.contrib import admin

from rosbi_platform.friends.models import Block, Follow


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ["follower", "followee", "created"]
    search_fields = ["follower__username", "followee__username"]
    raw_id_fields = ["follower", "followee"]


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ["blocker", "blocked", "created"]
    search_fields = ["blocker__username", "blocked__username"]
    raw_id_fields = ["blocker", "blocked"]
