"""Every club keeps an owner from now on (``accounts.clubs``): a club from before owners
existed gets its longest-serving organiser as owner (none when it has no organiser: staff
name one in the admin). Reversed, owners become organisers again (the role did not exist)."""

from django.db import migrations


def promote_first_organisers(apps, schema_editor):
    Club = apps.get_model("accounts", "Club")
    ClubMembership = apps.get_model("accounts", "ClubMembership")
    for club in Club.objects.all():
        if ClubMembership.objects.filter(club=club, role="owner").exists():
            continue
        first = (
            ClubMembership.objects.filter(club=club, role="organiser")
            .order_by("joined", "pk")
            .first()
        )
        if first is not None:
            first.role = "owner"
            first.save(update_fields=["role"])


def owners_back_to_organisers(apps, schema_editor):
    ClubMembership = apps.get_model("accounts", "ClubMembership")
    ClubMembership.objects.filter(role="owner").update(role="organiser")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_club_management")]

    operations = [migrations.RunPython(promote_first_organisers, owners_back_to_organisers)]
