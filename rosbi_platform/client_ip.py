"""The client's address, believing X-Forwarded-For only from the proxies we run.

A client can send any X-Forwarded-For it likes; only a proxy listed in ``TRUSTED_PROXIES``
(an address or a network) appends the address it saw. So the chain is read from the right,
skipping our own proxies, and the first address not ours is the client. A request that did
not come through a trusted proxy is judged by ``REMOTE_ADDR`` alone.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def address_from(meta: Mapping[str, Any], trusted: Iterable[str]) -> str | None:
    """The client address from request headers (``META``) given the trusted proxy networks."""
    networks: list[Network] = [ipaddress.ip_network(n, strict=False) for n in trusted]
    remote = _address(str(meta.get("REMOTE_ADDR") or ""))
    if remote is None:
        return None

    def is_ours(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
        return any(address in network for network in networks)

    if not is_ours(remote):
        return str(remote)
    hops = [_address(hop) for hop in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",")]
    for hop in reversed(hops):
        if hop is None:
            break  # garbage in the chain: nothing further left can be believed
        if not is_ours(hop):
            return str(hop)
    return str(remote)


def client_ip(request: HttpRequest) -> str | None:
    """The address of the client that sent ``request``."""
    return address_from(request.META, getattr(settings, "TRUSTED_PROXIES", ()))
