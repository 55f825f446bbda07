"""Whether a picture named in the rules prose can be drawn.

WeasyPrint leaves out a picture it cannot read and only logs it; the rulebook refuses that
after layout (:mod:`generator.render.pdf`). Checking the file while the prose is turned
into HTML lets ``validate`` name a broken picture too, without laying out a page. The
order of the tests is WeasyPrint's: a raster image through Pillow, then SVG.

A picture must hold everything it draws (design.md section 8). WeasyPrint fetches an SVG's
own references only while it draws the page, and drops a refused one silently, so they are
looked for here: an SVG may point only at its own ``#ids`` and at embedded raster data.
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
            # Pillow opens more kinds than a book should hold, some through other programs
            # (EPS through Ghostscript): only the kinds WeasyPrint's users expect go on.
            if image.format not in RASTER:
                return f"it is in {image.format} format; expected {KINDS}"
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
        return f"it is not a picture that can be read (expected {KINDS})"
    tag = root.tag.rpartition("}")[2]
    if tag != "svg":
        return f"it is XML whose root element is <{tag}>, not an SVG picture"
    for element in root.iter():
        # A link (<a href>) is followed by a reader's click, never fetched.
        link = element.tag.rpartition("}")[2] == "a"
        texts = [(k, v) for k, v in element.attrib.items()
                 if not (link and k.rpartition("}")[2] == "href")]
        if element.tag.rpartition("}")[2] == "style":
            texts.append(("style", element.text or ""))
        for name, value in texts:
            target = _outside_reference(name.rpartition("}")[2], value)
            if target is not None:
                return (f"it refers to {target!r}; an SVG picture may refer only to its own "
                        f"#ids and to PNG, JPEG, GIF or WebP data inside it")
    return None


def _outside_reference(name: str, value: str) -> str | None:
    """What ``value`` (an attribute ``name``, or a style sheet) refers to outside the
    picture, or None."""
    targets = _URL.findall(value)
    if name in ("href", "src"):
        targets.append(value.strip())
    if "@import" in value:
        return "@import"
    return next((t for t in targets if not (t.startswith("#") or _RASTER_DATA.match(t))), None)


RASTER = ("PNG", "JPEG", "MPO", "GIF", "WEBP")  # MPO: a camera's JPEG, read as one
KINDS = "PNG, JPEG, GIF, WebP or SVG"
_URL = re.compile(r"""url\(\s*['"]?\s*([^'")\s]*)""")
_RASTER_DATA = re.compile(r"data:image/(png|jpe?g|gif|webp)[;,]", re.IGNORECASE)
