"""The site-moderator rule (``accounts.permissions.is_site_moderator``): the permission
``accounts.moderate_site`` on the user model, and a group "Site moderators" holding it, so an
administrator grants it by adding a user to the group. ``is_staff`` only opens the admin."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP_NAME = "Site moderators"


def create_moderator_group(apps, schema_editor):
    # Permissions are normally created after all migrations ran (post_migrate); create this
    # app's now so the group can hold the new one on a fresh database too.
    app_config = apps.get_app_config("accounts")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.get(
        content_type__app_label="accounts", codename="moderate_site"
    )
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    group.permissions.add(permission)


def remove_moderator_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.filter(name=GROUP_NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_first_club_owners"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="user",
            options={
                "permissions": [
                    ("moderate_site", "Moderate the site (clubs, tables, reports)")
                ],
                "verbose_name": "user",
                "verbose_name_plural": "users",
            },
        ),
        migrations.RunPython(create_moderator_group, remove_moderator_group),
    ]
