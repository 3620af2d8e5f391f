"""Counting tokens as the embedding model's own tokenizer counts them (the context pack's budget).

The tokenizer is the model's ``tokenizer.json`` (WordPiece for all-MiniLM-L6-v2), read with the
``tokenizers`` package the ONNX embedder already uses: no torch, no download. Counted without
the model's special tokens and without its 256-token truncation, so a count is the text's
length and adds up line by line (the pre-tokenizer splits on whitespace).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.conf import settings

from memories.embedding import _model_folder
from memories.embedding.base import DEFAULT_MODEL_NAME

if TYPE_CHECKING:
    from tokenizers import Tokenizer


_tokenizer: Tokenizer | None = None
_lock = threading.Lock()


def _get_tokenizer() -> Tokenizer:
    global _tokenizer  # noqa: PLW0603 - one per process, loaded on first use
    if _tokenizer is None:
        with _lock:
            if _tokenizer is None:
                from tokenizers import Tokenizer

                folder = _model_folder(settings.EMBEDDING_MODEL)
                if folder is None or not (folder / "tokenizer.json").is_file():
                    raise RuntimeError(f"No tokenizer.json for the embedding model {settings.EMBEDDING_MODEL!r}.")
                tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
                tokenizer.no_truncation()
                tokenizer.no_padding()
                _tokenizer = tokenizer
    return _tokenizer


def counter_name() -> str:
    """What counts the tokens, as an answer names it."""
    return f"{settings.EMBEDDING_MODEL or DEFAULT_MODEL_NAME} tokenizer, without special tokens"


def count_tokens(texts: Sequence[str]) -> list[int]:
    """How many tokens each text is, in one batch."""
    if not texts:
        return []
    encodings = _get_tokenizer().encode_batch(list(texts), add_special_tokens=False)
    return [len(encoding.ids) for encoding in encodings]
