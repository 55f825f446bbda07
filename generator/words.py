"""Small helpers for the words the program prints."""

from __future__ import annotations


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 page``, ``2 pages``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"
