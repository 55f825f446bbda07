"""The project's own fonts, from its Python dependencies (design.md section 7).

Output must not change with the host's fonts, so every face is declared with
@font-face from the font packages' files and the CSS names no system family.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
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
