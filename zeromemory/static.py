"""The admin's assets, served by WhiteNoise straight from the installed apps (no collectstatic)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    """WhiteNoise, with STATIC_ROOT made first: WhiteNoise warns about a missing one, and the
    folder is made here, by a process that serves, rather than by every import of settings."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
        super().__init__(*args, **kwargs)
