"""The check of the prose's pictures, on files made here: WeasyPrint would leave each bad one
out, and the rulebook and ``validate`` must say why instead."""

from __future__ import annotations

import shutil
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from generator.render.pictures import picture_problem

PIXEL = Path(__file__).parent / "pixel.png"
# Pillow refuses to open a picture of more than twice this many pixels.
LIMIT = Image.MAX_IMAGE_PIXELS or 0


def png_header(width: int, height: int) -> bytes:
    """A PNG that declares its size and holds no pixels: enough for Pillow to open it."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


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
         "it is not a picture that can be read (such as PNG, JPEG, GIF, WebP or SVG)"),
        ("page.svg", b"<html><body/></html>",
         "it is XML whose root element is <html>, not an SVG picture"),
        ("huge.png", png_header(20000, 20000),
         f"it is too large to decode: 400000000 pixels, more than {2 * LIMIT}"),
        ("cut.png", PIXEL.read_bytes()[:-20], "it is a damaged picture"),
    ],
)
def test_pictures_that_cannot(tmp_path: Path, name: str, data: bytes, problem: str) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    found = picture_problem(path)
    assert found is not None and found.startswith(problem), found
