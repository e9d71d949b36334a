"""Table chat: players write to ``players``, spectators to ``spectators``; moderators mute.

Chat lines are not table state: they carry no version and are broadcast after the commit.
The table's owner, site moderators and the organisers of the table's club (tournament tables) mute and
unmute from the table page; everyone at the table is told by a ``mute`` notice.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from games import selectors
from games.broadcast import send_to_group
from games.events import ServiceError
from games.models import ChatMessage, Seat, Table, TableMute

CHAT_MAX_LENGTH = 500


def post_chat_message(table_id: int, user: Any, channel: str, text: str) -> dict[str, Any]:
    """Store a chat line and broadcast it; players write to ``players``, others to
    ``spectators``. Returns the chat event (not versioned: chat is not table state)."""
    text = (text or "").strip()
    if not text:
        raise ServiceError("bad_request", _("Say something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(
            "bad_request",
            _("Chat messages have at most %(count)s characters.") % {"count": CHAT_MAX_LENGTH},
        )
    if channel not in (ChatMessage.Channel.PLAYERS, ChatMessage.Channel.SPECTATORS):
        raise ServiceError("bad_request", _("The chat channel is 'players' or 'spectators'."))
    seated = Seat.objects.filter(table_id=table_id, user=user).exists()
    expected = ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS
    if channel != expected:
        raise ServiceError(
            "bad_request",
            _("Seated players chat on 'players', spectators on 'spectators'."),
        )
    if TableMute.objects.filter(table_id=table_id, user=user).exists():
        raise ServiceError("muted", _("You have been muted at this table."))
    group = Table.objects.only("id", "invite_code").get(pk=table_id).group_name
    with transaction.atomic():
        message = ChatMessage.objects.create(
            table_id=table_id, author=user, channel=channel, text=text
        )
        event = selectors.chat_event(message, user)
        transaction.on_commit(partial(send_to_group, group, {"type": "table.chat", "chat": event}))
    return event


def mute_user(table_id: int, by_user: Any, user: Any) -> None:
    """Silence ``user`` in this table's chat; for its owner, site moderators and club organisers."""
    _set_mute(table_id, by_user, user, muted=True)


def unmute_user(table_id: int, by_user: Any, user: Any) -> None:
    """Let ``user`` chat at this table again; for its owner, site moderators and club organisers."""
    _set_mute(table_id, by_user, user, muted=False)


def _set_mute(table_id: int, by_user: Any, user: Any, *, muted: bool) -> None:
    table = Table.objects.get(pk=table_id)
    if not selectors.may_moderate(table, by_user):
        raise ServiceError(
            "forbidden",
            _("Only the table's organiser or staff can mute.")
            if muted
            else _("Only the table's organiser or staff can unmute."),
        )
    if muted and user.pk == by_user.pk:
        raise ServiceError("bad_request", _("You cannot mute yourself."))
    with transaction.atomic():
        if muted:
            _mute, changed = TableMute.objects.get_or_create(
                table=table, user=user, defaults={"muted_by": by_user}
            )
        else:
            changed = bool(TableMute.objects.filter(table=table, user=user).delete()[0])
        if changed:
            notice = {
                "kind": "mute",
                "user_id": user.pk,
                "name": selectors.user_display_name(user),
                "muted": muted,
            }
            message = {"type": "table.notice", "notice": notice}
            transaction.on_commit(partial(send_to_group, table.group_name, message))
