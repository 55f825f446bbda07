"""Helpers for the tests that edit a copy of the content (the copy itself is the
``content_copy`` fixture of conftest.py)."""

from __future__ import annotations

from pathlib import Path

RULESETS = ("inverted-tower", "three-dice-dungeon", "tower-of-choices")
PIXEL = Path(__file__).with_name("pixel.png")  # a picture of one pixel, to put in a copy


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    """Replace text in a content file; fails loudly if ``old`` is not there."""
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")

