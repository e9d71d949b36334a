from django.contrib import admin

from tournaments.models import Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_at", "status", "table_size", "rounds"]
    list_filter = ["status", "club"]
    search_fields = ["name"]
    prepopulated_fields = {"slug": ["name"]}
