from django.contrib.auth import views as auth_views
from django.urls import path

from rosbi_platform.accounts import security_views, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.sign_up, name="signup"),
    path("login/", views.LogInView.as_view(), name="login"),
    path("login/code/", security_views.login_code, name="login_code"),
    path("email/verify/<str:token>/", security_views.verify_email, name="verify_email"),
    path("email/resend/", security_views.resend_verification, name="resend_verification"),
    path("two-factor/", security_views.two_factor_settings, name="two_factor"),
    path("two-factor/setup/", security_views.two_factor_setup, name="two_factor_setup"),
    path(
        "two-factor/recovery-codes/",
        security_views.two_factor_recovery_codes,
        name="two_factor_recovery_codes",
    ),
    path("two-factor/disable/", security_views.two_factor_disable, name="two_factor_disable"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/change/", views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("password/reset/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("profile/", views.profile_view, name="profile"),
    path("profile/edit/", views.profile_edit, name="profile_edit"),
    path("profile/tokens/", views.token_create, name="token_create"),
    path("profile/tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("profile/bot/", views.bot_account, name="bot_account"),
    path("profile/data/", views.data_export, name="data_export"),
    path("profile/delete/", views.account_delete, name="account_delete"),
]
