from __future__ import annotations

from rest_framework.pagination import CursorPagination


class FeedPagination(CursorPagination):
    """Newest first; the cursor stays stable while new memories arrive."""

    ordering = ("-created_at", "-id")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200
