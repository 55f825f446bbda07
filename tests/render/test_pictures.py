"""The check of the prose's pictures, on files made here: WeasyPrint would leave each bad one
out, and the rulebook and ``validate`` must say why instead."""

from __future__ import annotations

import base64
import io
import shutil
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from generator.render.pictures import picture_problem
from tests.content import PIXEL

# Pillow refuses to open a picture of more than twice this many pixels.
LIMIT = Image.MAX_IMAGE_PIXELS or 0


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares its size and holds no pixels: enough for Pillow to open it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def bmp() -> bytes:
    """A picture Pillow reads that a book does not take."""
    out = io.BytesIO()
    Image.new("RGB", (1, 1)).save(out, format="BMP")
    return out.getvalue()


def test_pictures_that_can_be_drawn(tmp_path: Path) -> None:
    svg = tmp_path / "dot.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
                   encoding="utf-8")
    assert picture_problem(svg) is None
    png = tmp_path / "pixel.png"
    shutil.copy(PIXEL, png)
    assert picture_problem(png) is None


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("notes.png", b"not a picture\n",
         "it is not a picture that can be read (expected PNG, JPEG, GIF, WebP or SVG)"),
        ("page.svg", b"<html><body/></html>",
         "it is XML whose root element is <html>, not an SVG picture"),
        ("huge.png", png_header(20000, 20000),
         f"it is too large to decode: 400000000 pixels, more than {2 * LIMIT}"),
        ("cut.png", PIXEL.read_bytes()[:-20], "it is a damaged picture"),
        # Pillow reads EPS through Ghostscript, a program of the host.
        ("page.eps", b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 4 4\n",
         "it is in EPS format; expected PNG, JPEG, GIF, WebP or SVG"),
        ("icon.bmp", bmp(), "it is in BMP format"),
    ],
)
def test_pictures_that_cannot(tmp_path: Path, name: str, data: bytes, problem: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    found = picture_problem(path)
    assert found is not None and found.startswith(problem), found


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">{}</svg>'
RED_DOT = "data:image/png;base64," + base64.b64encode(PIXEL.read_bytes()).decode("ascii")


@pytest.mark.parametrize(
    ("inner", "target"),
    [
        ('<image href="file:///etc/hostname"/>', "file:///etc/hostname"),
        ('<image xlink:href="../../outside.png"/>', "../../outside.png"),
        ('<use href="http://127.0.0.1:8765/a.svg#x"/>', "http://127.0.0.1:8765/a.svg#x"),
        ('<rect fill="url(http://example.com/p.svg#g)"/>', "http://example.com/p.svg#g"),
        ('<rect style="filter: url( \'other.svg#f\' )"/>', "other.svg#f"),
        ("<style>rect { fill: url(pattern.svg#p) }</style>", "pattern.svg#p"),
        ('<style>@import "http://example.com/a.css";</style>', "@import"),
        ('<image href="data:image/svg+xml;base64,PHN2Zy8+"/>',
         "data:image/svg+xml;base64,PHN2Zy8+"),
        ('<foreignObject><img xmlns="http://www.w3.org/1999/xhtml" src="/etc/x.png"/>'
         "</foreignObject>", "/etc/x.png"),
    ],
)
def test_an_svg_may_not_refer_outside_itself(tmp_path: Path, inner: str, target: str) -> None:
    """WeasyPrint would drop these silently while drawing (the fetcher refuses them)."""
    path = tmp_path / "map.svg"
    path.write_text(SVG.format(inner), encoding="utf-8")
    assert picture_problem(path) == (
        f"it refers to {target!r}; an SVG picture may refer only to its own #ids and to "
        "PNG, JPEG, GIF or WebP data inside it"
    )


def test_an_svg_may_refer_to_itself_and_hold_raster_data(tmp_path: Path) -> None:
    path = tmp_path / "map.svg"
    inner = (f'<defs><linearGradient id="g"/></defs><rect fill="url(#g)"/>'
             f'<use xlink:href="#g"/><image href="{RED_DOT}"/>'
             '<a href="https://example.com/map"><text>a link, followed by a click</text></a>')
    path.write_text(SVG.format(inner), encoding="utf-8")
    assert picture_problem(path) is None


def test_a_reference_refused_while_drawing_stops_the_pdf(tmp_path: Path) -> None:
    """The safety net behind the check above: WeasyPrint fetches an SVG's pictures only
    while it draws, and would leave out the refused one without a word."""
    from urllib.parse import quote

    from generator.errors import RenderError
    from generator.render.pdf import pdf_bytes, render_document

    outside = tmp_path / "outside.png"
    shutil.copy(PIXEL, outside)
    svg = SVG.format(f'<image width="4" height="4" href="{outside.as_uri()}"/>')
    html = f'<img src="data:image/svg+xml,{quote(svg)}" width="40">'
    document = render_document(html, tmp_path / "content")
    with pytest.raises(RenderError, match=r"refused reference 'file:///.*outside\.png'"):
        pdf_bytes(document)
