from django.contrib import admin

from rosbi_platform.notifications.models import Notification, Preference


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created", "user", "kind", "message", "emailed_at", "read_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "message", "key")
    raw_id_fields = ("user",)
    readonly_fields = ("key", "created", "emailed_at")


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ("user", "kind", "on_site", "email")
    raw_id_fields = ("user",)
