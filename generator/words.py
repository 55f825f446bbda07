"""Small helpers for the words the program prints."""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 page``, ``2 pages``."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def either(names: list[str]) -> str:
    """Names as a reader says a choice of them: ``A, B or C``; names that differ only after
    a comma are said once (``Misc supplies (tier 1, tier 2 or tier 3)``)."""
    groups: dict[str, list[str]] = {}
    for name in names:
        head, _, tail = name.partition(", ")
        groups.setdefault(head, []).append(tail)
    said = [head if tails == [""] else f"{head} ({listed(tails, 'or')})" if len(tails) > 1
            else f"{head}, {tails[0]}" for head, tails in groups.items()]
    return listed(said, "or")


def listed(values: Sequence[object], last: str = "and") -> str:
    """``4``, ``4 and 3``, ``4, 3 and 5`` (``last`` "or": a choice of them)."""
    text = [str(v) for v in values]
    return text[0] if len(text) == 1 else f"{', '.join(text[:-1])} {last} {text[-1]}"
