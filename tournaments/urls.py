from django.urls import path

from tournaments import views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("clubs/<slug:slug>/", views.club_page, name="club"),
    path("tables/<int:table_id>/sheet/", views.score_sheet, name="sheet"),
    path("sheets/<int:sheet_id>/confirm/", views.confirm_sheet, name="confirm_sheet"),
    path("tables/<int:table_id>/present/", views.confirm_presence, name="present"),
    path("<slug:slug>/", views.tournament_page, name="detail"),
    path("<slug:slug>/state.json", views.state_json, name="state"),
    path("<slug:slug>/bracket.svg", views.bracket_svg, name="bracket"),
    path("<slug:slug>/rounds/<int:number>/print/", views.print_round, name="print"),
    path("<slug:slug>/<str:action>/", views.tournament_action, name="action"),
]
