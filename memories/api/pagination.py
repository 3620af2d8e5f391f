from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter
from rest_framework.pagination import CursorPagination

from memories.agent import contract


class FeedPagination(CursorPagination):
    """Newest first; the cursor stays stable while new memories arrive."""

    ordering = ("-created_at", "-id")
    page_size = contract.FEED_PAGE_SIZE
    page_size_query_param = "limit"
    max_page_size = contract.MAX_FEED_PAGE_SIZE


def page_parameters(max_page_size: int) -> list[OpenApiParameter]:
    """The cursor pagination's query parameters, which an APIView's schema does not pick up."""
    return [
        OpenApiParameter(
            "cursor", str, description="Where the page starts: the cursor of the previous page's `next` link."
        ),
        OpenApiParameter(
            "limit",
            {"type": "integer", "minimum": 1, "maximum": max_page_size},
            description=f"Results per page (default {contract.FEED_PAGE_SIZE}, at most {max_page_size}).",
        ),
    ]
