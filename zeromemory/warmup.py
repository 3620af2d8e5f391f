"""Work a server process does once at start, so its first request is as fast as the rest."""

from __future__ import annotations

import logging
import time

from django.conf import settings

logger = logging.getLogger(__name__)


def warm_up() -> None:
    if not settings.PRELOAD_EMBEDDER:
        return
    from memories.embedding import get_embedder

    started = time.perf_counter()
    get_embedder().embed(["warm-up"])
    logger.info("Embedding model ready in %.1fs", time.perf_counter() - started)
