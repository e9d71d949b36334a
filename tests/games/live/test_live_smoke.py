import pytest

from games import services
from games.models import Partie, SeatResult, TableEvent
from tests.games.factories import TableFactory, UserFactory

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def test_bots_play_a_whole_partie():
    owner = UserFactory()
    table = TableFactory(owner=owner, fill_with_bots=True)
    services.start_table(table.pk, owner, seed=7)
    table.refresh_from_db()
    assert table.status == "finished"
    assert SeatResult.objects.filter(partie__table=table).count() == 4
    print(TableEvent.objects.filter(table=table).count())
    assert Partie.objects.get(table=table).handed_off
