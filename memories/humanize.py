from __future__ import annotations

_UNITS = (
    ("year", 365 * 24 * 3600),
    ("month", 30 * 24 * 3600),
    ("week", 7 * 24 * 3600),
    ("day", 24 * 3600),
    ("hour", 3600),
    ("minute", 60),
    ("second", 1),
)


def age(seconds: float) -> str:
    """The largest whole unit: "3 weeks", "1 day", "just now"."""
    if seconds < 1:
        return "just now"
    for name, size in _UNITS:
        count = int(seconds // size)
        if count >= 1:
            return f"{count} {name}{'' if count == 1 else 's'}"
    return "just now"  # pragma: no cover - the loop always returns for seconds >= 1
