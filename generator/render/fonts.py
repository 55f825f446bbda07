"""The project's own fonts, from its Python dependencies (design.md section 7).

Output must not change with the host's fonts, so every face is declared with
@font-face from the font packages' files and the CSS names no system family.
"""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

import font_source_sans_pro
import font_source_serif_pro
from markupsafe import Markup

SERIF = "TowerPressSerif"
SANS = "TowerPressSans"


@dataclass(frozen=True)
class Face:
    family: str
    file: Path
    weight: int
    italic: bool


def font_dirs() -> tuple[Path, ...]:
    """Folders the URL fetcher may serve fonts from."""
    return (
        Path(font_source_serif_pro.font_directory).resolve(),
        Path(font_source_sans_pro.font_directory).resolve(),
    )


_STYLES = {
    "Regular": (400, False),
    "It": (400, True),
    "Semibold": (600, False),
    "SemiboldIt": (600, True),
    "Bold": (700, False),
    "BoldIt": (700, True),
}


@cache
def faces() -> tuple[Face, ...]:
    serif_dir, sans_dir = font_dirs()
    found: list[Face] = []
    for family, folder, prefix in (
        (SERIF, serif_dir, "SourceSerifPro"),
        (SANS, sans_dir, "SourceSansPro"),
    ):
        for style, (weight, italic) in _STYLES.items():
            path = folder / f"{prefix}-{style}.ttf"
            if path.is_file():
                found.append(Face(family, path, weight, italic))
    return tuple(found)


def font_face_css() -> Markup:
    rules = []
    for face in faces():
        style = "italic" if face.italic else "normal"
        rules.append(
            "@font-face { "
            f"font-family: {face.family}; src: url({face.file.as_uri()}); "
            f"font-weight: {face.weight}; font-style: {style}; }}"
        )
    # Built only from the font packages' own file paths, never from content.
    return Markup("\n".join(rules))


def inline_font_face_css(text: str, wanted: frozenset[tuple[str, int, bool]]) -> Markup:
    """@font-face rules with the ``wanted`` faces (family, weight, italic) inlined as
    ``data:`` URLs, each cut down to the characters of ``text``: a page that stands alone
    (a booklet on a phone) carries its fonts, and the few hundred glyphs it prints of them
    weigh a few kilobytes each, where a whole face weighs 80 to 300."""
    characters = "".join(sorted(set(text)))
    rules = []
    for face in faces():
        if (face.family, face.weight, face.italic) in wanted:
            style = "italic" if face.italic else "normal"
            rules.append(
                "@font-face { "
                f"font-family: {face.family}; src: url(data:font/woff2;base64,"
                f"{_subset_woff2(face.file, characters)}) format('woff2'); "
                f"font-weight: {face.weight}; font-style: {style}; }}"
            )
    return Markup("\n".join(rules))


# Kept for the last few pages' characters (a page's text mostly uses the same ones):
# a server making many pages holds a few hundred kilobytes, not one cut a page.
@lru_cache(maxsize=48)
def _subset_woff2(file: Path, characters: str) -> str:
    # Imported here: fontTools' subsetter is only needed by a page that inlines its fonts.
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    options.hinting = False  # screens render unhinted outlines well; hints are half the size
    options.name_IDs = []
    # Nor its substitutions, which cost most of the time to cut: the page sets no ligature
    # and the faces' default figures are the lining ones it wants.
    options.drop_tables += ["GSUB"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters)
    # No fresh timestamp in the font's head table: the same page, byte for byte.
    font = TTFont(file, recalcTimestamp=False)
    subsetter.subset(font)
    font.flavor = "woff2"
    out = io.BytesIO()
    font.save(out)
    return base64.b64encode(out.getvalue()).decode("ascii")
