"""A lean websocket client for the reconnect storm: RFC 6455 on asyncio streams, nothing more.

The storm's load generator shares the 2-core benchmark machine with the server it measures;
with the ``websockets`` library the 4,000 clients cost 13-17 s of CPU per storm, a third of
the machine, which production's clients (browsers elsewhere) never take from the server. This
client does what a browser does on the wire (the upgrade with its key check, masked frames,
unmasked server frames of any length, a close frame) with the work per frame cut to a header
and a slice, so the same storm costs the machine a fraction of that.
It is a benchmark tool, not a general client: no extensions, no fragmented messages (the
server sends none: ``--ws-per-message-deflate=false``, one frame per message).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
from urllib.parse import urlsplit

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
OP_CONTINUATION, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10


class HandshakeRefused(ConnectionError):
    """The server answered the upgrade with something other than 101 (``status`` says what)."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(f"upgrade refused: HTTP {status} {reason}")
        self.status = status


class Closed(ConnectionError):
    """The server closed the websocket (``code``: its close code, or None if the TCP went)."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed ({code})")
        self.code = code


def mask_frame(opcode: int, payload: bytes, mask: bytes | None = None) -> bytes:
    """One final client frame, masked as RFC 6455 requires of clients."""
    mask = mask if mask is not None else os.urandom(4)
    length = len(payload)
    if length < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
    elif length < 1 << 16:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
    if payload:
        key = int.from_bytes((mask * (length // 4 + 1))[:length], "big")
        payload = (int.from_bytes(payload, "big") ^ key).to_bytes(length, "big")
    return header + mask + payload


class Connection:
    """One open websocket: ``send_text``, ``recv`` (text/binary payloads), ``close``, ``abort``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.close_code: int | None = None

    @property
    def transport(self) -> asyncio.BaseTransport:
        return self.writer.transport

    def send_text(self, text: str) -> None:
        self.writer.write(mask_frame(OP_TEXT, text.encode()))

    async def recv(self) -> bytes:
        """The next data message's payload; answers pings; raises ``Closed`` at a close."""
        read = self.reader.readexactly
        while True:
            try:
                first, second = await read(2)
            except (asyncio.IncompleteReadError, ConnectionError) as gone:
                raise Closed(None) from gone
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await read(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await read(8))
            if second & 0x80:  # a masked server frame breaks the protocol
                raise ConnectionError("server sent a masked frame")
            payload = await read(length) if length else b""
            opcode = first & 0x0F
            if opcode in (OP_TEXT, OP_BINARY):
                if not first & 0x80:
                    raise ConnectionError("fragmented message (not used by this server)")
                return payload
            if opcode == OP_CLOSE:
                self.close_code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                self.abort()
                raise Closed(self.close_code)
            if opcode == OP_PING:
                self.writer.write(mask_frame(OP_PONG, payload))

    async def close(self) -> None:
        """A close frame (1000), then the TCP connection."""
        try:
            self.writer.write(mask_frame(OP_CLOSE, struct.pack("!H", 1000)))
            await self.writer.drain()
        except ConnectionError:
            pass
        self.abort()

    def abort(self) -> None:
        self.writer.transport.abort()


async def connect(url: str, headers: dict[str, str]) -> Connection:
    """Open ``ws://host:port/path?query`` with extra request headers (Cookie, Origin)."""
    parts = urlsplit(url)
    if parts.scheme != "ws":
        raise ValueError(f"only ws:// URLs: {url}")
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    target = parts.path + (f"?{parts.query}" if parts.query else "")
    key = base64.b64encode(os.urandom(16))
    lines = [
        f"GET {target} HTTP/1.1",
        f"Host: {parts.netloc}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key.decode()}",
        "Sec-WebSocket-Version: 13",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    reader, writer = await asyncio.open_connection(host, port, limit=2**22)
    try:
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        _, status, *reason = status_line.split(" ", 2)
        if status != "101":
            raise HandshakeRefused(int(status), reason[0] if reason else "")
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest()).decode()
        answered = {
            name.strip().lower(): value.strip()
            for name, _, value in (line.partition(":") for line in header_lines if line)
        }
        if answered.get("sec-websocket-accept") != accept:
            raise ConnectionError("wrong Sec-WebSocket-Accept in the server's answer")
    except BaseException:
        writer.transport.abort()
        raise
    return Connection(reader, writer)
