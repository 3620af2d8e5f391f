"""Which address a request came from, for limits keyed on the client (the admin login throttle).

``REMOTE_ADDR`` is the peer that opened the connection: the client itself, or, behind a reverse
proxy, the proxy, which every client behind it then shares. A proxy says whom it served by
appending that peer's address to ``X-Forwarded-For``; everything to the left of what the trusted
proxies appended was written by the client and proves nothing. So the header is read only when
the deployment says how many proxies it trusts (``ZEROMEMORY_TRUSTED_PROXY_COUNT``), and only the
entry the outermost trusted proxy appended is taken: the N-th from the right.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind N trusted proxies, the N-th entry from
    the right of ``X-Forwarded-For``.

    A request that did not pass through all N (too few entries) or whose entry is not an
    address is taken to come from its direct peer, as it would without the setting: a malformed
    header never earns a fresh allowance.
    """
    peer: str = request.META.get("REMOTE_ADDR", "")
    trusted: int = settings.TRUSTED_PROXY_COUNT
    if trusted == 0:
        return peer
    hops = [hop.strip() for hop in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if len(hops) < trusted:
        return peer
    try:
        return str(ipaddress.ip_address(hops[-trusted]))
    except ValueError:
        return peer
