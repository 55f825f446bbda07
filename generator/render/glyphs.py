"""Characters the project's fonts can draw.

fontconfig knows no font but the project's own (generator/render/__init__.py), so a
character that none of them has would print as an empty box. ``validate`` and ``build``
refuse one in the content before anything is laid out, naming its file and key or line;
any other (one a template or an entity brings) stops the render when its page is drawn
(pdf.py).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from generator.findings import Finding
from generator.model.loader import Ruleset
from generator.render.fonts import faces

FONT_NAMES = "Source Serif Pro and Source Sans Pro"
# Format characters (soft hyphen, word joiner) and paragraph separators draw nothing: no
# font needs them.  Pango sets a space the font lacks (thin, hair, em) as a gap of its
# width, and a non-breaking hyphen as the font's hyphen.
_INVISIBLE = ("Cf", "Zp", "Zs")
_SUBSTITUTED = {"\u2011"}
# Of the controls only these lay out as white space: Pango draws any other (ESC, NUL,
# which the HTML parser makes U+FFFD, C1 controls) as an empty box, and so it does these
# format characters, and the line separator (found by laying out each character of these
# categories with WeasyPrint 70): prepended concatenation marks, interlinear annotation
# marks, Egyptian and shorthand format controls.
_SPACES = frozenset("\t\n\r")
_BOXED = frozenset(map(chr, [*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x2028,
                             *range(0xFFF9, 0xFFFC), 0x110BD, 0x110CD, *range(0x13430, 0x13439),
                             *range(0x1BCA0, 0x1BCA4)]))


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
        if ord(char) not in have and not _draws_nothing(char) and char not in _SUBSTITUTED:
            return char
    return None


def _draws_nothing(char: str) -> bool:
    category = unicodedata.category(char)
    if category == "Cc":
        return char in _SPACES
    return category in _INVISIBLE and char not in _BOXED


def describe(text: str, char: str) -> str:
    """What to say about ``char`` in ``text``: where it is, and which character it is."""
    at = text.index(char)
    around = " ".join(text[max(0, at - 25):at + 25].split())
    name = unicodedata.name(char, "a control character" if unicodedata.category(char) == "Cc"
                            else "unnamed")
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
    by file and key (or line); file names are shown from ``base``. The files are those the
    loader read, as it read them (``Ruleset.sources``)."""
    found: list[Finding] = []
    for name, source in sorted(ruleset.sources.items()):
        shown = _shown(ruleset.root / name, base)
        if isinstance(source, str):
            found += [Finding.in_content(shown, f"line {number}", describe(line, char))
                      # Not splitlines(): it breaks at \x1c, \x85 or U+2028 too, which would
                      # never reach missing(); Markdown's lines end at \n alone.
                      for number, line in enumerate(source.split("\n"), 1)
                      if (char := missing(line))]
        else:
            found += [Finding.in_content(shown, key, problem)
                      for key, problem in missing_in_values(source)]
    return found


def _shown(path: Path, base: Path) -> str:
    return str(path.relative_to(base)) if path.is_relative_to(base) else str(path)
