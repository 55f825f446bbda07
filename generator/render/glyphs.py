"""Characters the project's fonts can draw.

fontconfig knows no font but the project's own (generator/render/__init__.py), so a
character that none of them has would print as an empty box. ``validate`` and ``build``
refuse one in the content before anything is laid out, naming its file and key or line;
any other (one a template or an entity brings) stops the render when its page is drawn
(pdf.py).
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from generator.findings import Finding
from generator.model.loader import Ruleset
from generator.render.fonts import faces

FONT_NAMES = "Source Serif Pro and Source Sans Pro"
# Controls, format characters (soft hyphen, word joiner) and line or paragraph separators
# draw nothing: no font needs them.  Pango sets a space the font lacks (thin, hair, em) as
# a gap of its width, and a non-breaking hyphen as the font's hyphen.
_INVISIBLE = ("Cc", "Cf", "Zl", "Zp", "Zs")
_SUBSTITUTED = {"\u2011"}


@cache
def drawable() -> frozenset[int]:
    """Every code point that at least one face of the project's fonts has a glyph for."""
    from fontTools.ttLib import TTFont  # WeasyPrint's own

    found: set[int] = set()
    for face in faces():
        with TTFont(face.file, lazy=True) as font:
            found.update(font["cmap"].getBestCmap())
    return frozenset(found)


def missing(text: str) -> str | None:
    """The first character of ``text`` that no project font has, or None."""
    have = drawable()
    for char in dict.fromkeys(text):
        if (ord(char) not in have and unicodedata.category(char) not in _INVISIBLE
                and char not in _SUBSTITUTED):
            return char
    return None


def describe(text: str, char: str) -> str:
    """What to say about ``char`` in ``text``: where it is, and which character it is."""
    at = text.index(char)
    around = " ".join(text[max(0, at - 25):at + 25].split())
    name = unicodedata.name(char, "unnamed")
    return (f"{around!r} holds {char!r} (U+{ord(char):04X} {name}), which the project's "
            f"fonts ({FONT_NAMES}) do not have")


def missing_in_values(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, problem) for each string of a TOML tree that holds an undrawable character."""
    if isinstance(value, str):
        char = missing(value)
        if char:
            yield key, describe(value, char)
    elif isinstance(value, Mapping):
        for name, item in value.items():
            yield from missing_in_values(item, f"{key}.{name}" if key else str(name))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from missing_in_values(item, f"{key}[{i}]")


def glyph_problems(ruleset: Ruleset, base: Path) -> list[Finding]:
    """Every text of the ruleset's TOML and Markdown files with a character the fonts lack,
    by file and key (or line); file names are shown from ``base``."""
    root = ruleset.root
    tomls = [root / "ruleset.toml", root / "rulings.toml"]
    for folder in ("profiles", "tables", "decks", "sheets"):
        tomls += sorted((root / folder).glob("*.toml"))
    found: list[Finding] = []
    for path in tomls:
        if path.is_file():  # the loader has read each one already
            with path.open("rb") as handle:
                tree = tomllib.load(handle)
            found += [Finding.in_content(_shown(path, base), key, problem)
                      for key, problem in missing_in_values(tree)]
    quick = [] if ruleset.quick_reference is None else [root / "quick-reference.md"]
    for path in [*sorted((root / "rules").glob("*.md")), *quick]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            char = missing(line)
            if char:
                found.append(Finding.in_content(_shown(path, base), f"line {number}",
                                                   describe(line, char)))
    return found


def _shown(path: Path, base: Path) -> str:
    return str(path.relative_to(base)) if path.is_relative_to(base) else str(path)
