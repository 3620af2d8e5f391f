"""Plumbing the doors share, kept apart from the domain: API tokens, the per-token rate limit
(GCRA in PostgreSQL), idempotent retries, and which database a read goes to (replicas)."""
