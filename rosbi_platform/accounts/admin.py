from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from rosbi_platform.accounts.models import Club, ClubMembership, Profile, User


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False


@admin.register(User)
class RosbiUserAdmin(UserAdmin):
    inlines = [ProfileInline]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "card_look", "language", "time_zone"]
    search_fields = ["user__username", "display_name"]
    list_filter = ["card_look", "language"]


class ClubMembershipInline(admin.TabularInline):
    model = ClubMembership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name"]
    inlines = [ClubMembershipInline]


@admin.register(ClubMembership)
class ClubMembershipAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role", "joined"]
    list_filter = ["role", "club"]
    autocomplete_fields = ["user", "club"]
