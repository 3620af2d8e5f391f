"""Batch writes: many remember bodies in one request (``POST /api/v1/memories/batch/``, the MCP
tool ``remember_batch``).

Each item is exactly a ``remember`` (its own declarations, dedup, visibility and errors) and its
result is what it would have answered alone: ``{"status": 201 | 200, <the remember answer>}`` or
``{"status": 4xx, "error": {...}}``, in item order. The embeddings of all valid items come from
one call to the model. Items are atomic each on their own; with ``"atomic": true`` the batch is
one transaction, and the first item that fails rolls all of them back and answers for the batch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from memories.agent import contract
from memories.agent.errors import as_domain_error, domain_error_body, error_status
from memories.agent.verbs import Body, remember_parsed
from memories.embedding import EmbeddingError, embed_with_sentences
from memories.errors import DomainError, EmbeddingFailed, RateLimited
from memories.models import Credential
from memories.platform.idempotency import request_fingerprint, run_idempotently
from memories.platform.ratelimit import credential_wait


class BatchItemFailed(DomainError):
    """An item of an atomic batch failed: nothing of the batch was stored."""

    def __init__(self, index: int, error: DomainError) -> None:
        fields = {f"items[{index}].{name}": messages for name, messages in (error.fields or {}).items()}
        super().__init__(
            f"Item {index}: {error.message} Nothing of the batch was stored (atomic).",
            code=error.code,
            fields=fields or {f"items[{index}]": [error.message]},
        )
        self.inner = error  # its code, copied above, gives the batch the item's status

    def extra(self) -> dict[str, Any]:
        return self.inner.extra()


def _charge(credential: Credential, arguments: Any) -> None:
    """Each item counts against the token's rate limit as a request of its own. The door counted
    the request itself; the rest is counted here, before anything runs (and outside the batch's
    transaction, whose failure must not refund it)."""
    items = arguments.get("items") if isinstance(arguments, dict) else None
    extra = min(len(items), contract.MAX_BATCH_ITEMS) - 1 if isinstance(items, list) else 0
    if extra > 0:
        wait = credential_wait(credential, cost=extra)
        if wait is not None:
            raise RateLimited(wait)


def remember_batch(*, user: User, credential: Credential, arguments: Any, idempotency_key: str | None = None) -> Body:
    _charge(credential, arguments)

    def prepare() -> Callable[[], Body]:
        return _prepare(user, credential, contract.BATCH.parse(arguments))

    if idempotency_key is None:
        return prepare()()
    # The items are checked and embedded before the key's transaction opens (run_idempotently).
    answer: Body = run_idempotently(
        credential=credential,
        key=idempotency_key,
        request_hash=request_fingerprint("remember_batch", arguments),
        prepare=prepare,
    )
    return answer


def _prepare(user: User, credential: Credential, batch: dict[str, Any]) -> Callable[[], Body]:
    """Each item checked and every valid one embedded (one call); the write that stores them."""
    items: list[Any] = batch["items"]  # at least one: the contract's BATCH refuses an empty list
    parsed: list[dict[str, Any] | DomainError] = []
    for item in items:
        try:
            parsed.append(contract.REMEMBER.parse(item))
        except DomainError as error:
            parsed.append(error)
    valid = [fields for fields in parsed if not isinstance(fields, DomainError)]
    try:
        vectors = iter(embed_with_sentences([fields["content"] for fields in valid]) if valid else [])
    except EmbeddingError as exc:
        raise EmbeddingFailed("The embedding model failed; nothing was stored. Retry the request.") from exc

    def write() -> Body:
        if batch["atomic"]:
            with transaction.atomic():
                return {
                    "results": [
                        _atomic_item(user, credential, index, fields, vectors) for index, fields in enumerate(parsed)
                    ]
                }
        return {"results": [_own_item(user, credential, fields, vectors) for fields in parsed]}

    return write


def _atomic_item(
    user: User, credential: Credential, index: int, fields: dict[str, Any] | DomainError, vectors: Any
) -> Body:
    if isinstance(fields, DomainError):
        raise BatchItemFailed(index, fields)
    try:
        return _answer(remember_parsed(user=user, credential=credential, fields=fields, vectors=next(vectors)))
    except DomainError as error:
        raise BatchItemFailed(index, error) from error


def _own_item(user: User, credential: Credential, fields: dict[str, Any] | DomainError, vectors: Any) -> Body:
    if isinstance(fields, DomainError):
        return _failed(fields)
    item_vectors = next(vectors)
    try:
        # A savepoint when the batch runs inside a transaction (an Idempotency-Key's): a failed
        # item leaves the others as they are.
        with transaction.atomic():
            return _answer(remember_parsed(user=user, credential=credential, fields=fields, vectors=item_vectors))
    except Exception as exc:
        error = as_domain_error(exc)
        if error is None:
            raise
        return _failed(error)


def _answer(body: Body) -> Body:
    return {"status": 200 if body["absorbed"] else 201, **body}


def _failed(error: DomainError) -> Body:
    return {"status": error_status(error), **domain_error_body(error)}
