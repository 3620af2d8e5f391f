"""zeromemory's Python client: ``Client`` (sync) and ``AsyncClient`` with the same methods.

    from zeromemory_client import Client

    with Client("http://127.0.0.1:8000", token) as zm:
        old = zm.remember("Deploy window is Monday 10:00 UTC.", project="acme")
        new = zm.remember("Deploy window is Friday 14:00 UTC.", project="acme", supersedes=[old.memory.id])
        print([version.content for version in zm.history(new.memory.id).versions])

docs/clients/python.md in the server's repository has the whole tour.
"""

__version__ = "0.1.0"

from zeromemory_client._retry import RetryPolicy
from zeromemory_client.aio import AsyncClient, AsyncPages
from zeromemory_client.client import Client, Pages
from zeromemory_client.errors import (
    FeedEpochChanged,
    Forbidden,
    IdempotencyKeyReused,
    InvalidRequest,
    NotFound,
    RateLimited,
    StaleTarget,
    StateConflict,
    TransportError,
    Unauthorized,
    Unavailable,
    ZeromemoryError,
)
from zeromemory_client.types import (
    BatchItem,
    Conflict,
    ConflictGroup,
    Context,
    ContextItem,
    Event,
    History,
    Hit,
    Link,
    Memory,
    Remembered,
    SimilarMemory,
    Whoami,
)

__all__ = [
    "AsyncClient",
    "AsyncPages",
    "BatchItem",
    "Client",
    "Conflict",
    "ConflictGroup",
    "Context",
    "ContextItem",
    "Event",
    "FeedEpochChanged",
    "Forbidden",
    "History",
    "Hit",
    "IdempotencyKeyReused",
    "InvalidRequest",
    "Link",
    "Memory",
    "NotFound",
    "Pages",
    "RateLimited",
    "Remembered",
    "RetryPolicy",
    "SimilarMemory",
    "StaleTarget",
    "StateConflict",
    "TransportError",
    "Unauthorized",
    "Unavailable",
    "Whoami",
    "ZeromemoryError",
]
