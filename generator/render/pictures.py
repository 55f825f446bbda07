"""Whether a picture named in the rules prose can be drawn.

WeasyPrint leaves out a picture it cannot read and only logs it; the rulebook refuses that
after layout (:mod:`generator.render.pdf`). Checking the file while the prose is turned
into HTML lets ``validate`` name a broken picture too, without laying out a page. The
order of the tests is WeasyPrint's: a raster image through Pillow, then SVG.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

from PIL import Image, UnidentifiedImageError


def picture_problem(path: Path) -> str | None:
    """Why ``path`` cannot be drawn as a picture, or None when it can."""
    try:
        with Image.open(path) as image:
            image.verify()  # the file's structure, and a PNG's checksums
        # verify() passes many cut-off JPEG and GIF files: decoding finds them. The size
        # check of Image.open above has already refused a picture too large to decode.
        with Image.open(path) as image:
            image.load()
    except Image.DecompressionBombError as exc:
        pixels, limit = [*re.findall(r"\d+", str(exc)), "?", "?"][:2]
        return f"it is too large to decode: {pixels} pixels, more than {limit}"
    except UnidentifiedImageError:
        return _svg_problem(path)
    except (OSError, SyntaxError, ValueError) as exc:
        return f"it is a damaged picture ({exc})"
    return None


def _svg_problem(path: Path) -> str | None:
    try:
        root = ElementTree.parse(path).getroot()
    except (ElementTree.ParseError, OSError):
        return "it is not a picture that can be read (such as PNG, JPEG, GIF, WebP or SVG)"
    tag = root.tag.rpartition("}")[2]
    if tag != "svg":
        return f"it is XML whose root element is <{tag}>, not an SVG picture"
    return None
