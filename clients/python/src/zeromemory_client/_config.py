"""What both clients are built from: where the server is, the token, the headers."""

from __future__ import annotations

import os

from zeromemory_client import __version__


def settings(base_url: str | None, token: str | None) -> tuple[str, dict[str, str]]:
    """The base URL and the headers every request carries. Unset, they come from
    ZEROMEMORY_URL and ZEROMEMORY_TOKEN, so an agent's code names neither."""
    url = base_url or os.environ.get("ZEROMEMORY_URL")
    secret = token or os.environ.get("ZEROMEMORY_TOKEN")
    if not url:
        raise ValueError("no server: pass base_url or set ZEROMEMORY_URL (e.g. http://127.0.0.1:8000)")
    if not secret:
        raise ValueError("no token: pass token or set ZEROMEMORY_TOKEN (./zm manage issue_token USER)")
    headers = {
        "Authorization": f"Bearer {secret}",
        "Accept": "application/json",
        "User-Agent": f"zeromemory-client-python/{__version__}",
    }
    return url.rstrip("/"), headers
