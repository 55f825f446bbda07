"""Card sheets as PNG for Tabletop Simulator: 10 x 7 cards a sheet, at most 4096 px a side.

The sheets are laid out like the PDF (same fitting, same faces), without margins or
marks, and rasterised with pypdfium2; the PNG encoder is the standard library's zlib.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from generator.model.loader import Ruleset
from generator.products.cards.compose import Info, Placed, Sheet, compose
from generator.products.cards.imposition import Duplex, Layout, Placement
from generator.products.cards.printing import CardOptions, DeckPrint, render_cards
from generator.render.output import write_atomic

TTS_COLS, TTS_ROWS = 10, 7
MAX_PX = 4096


def _grid(opts: CardOptions, cols: int, rows: int, duplex: Duplex = "none") -> Layout:
    w, h = opts.size.width, opts.size.height
    slots = tuple(Placement(c * w, r * h, w, h, (0.0,) * 4)
                  for r in range(rows) for c in range(cols))
    return Layout("tts", cols * w, rows * h, opts.size, 0.0, 0.0, cols, rows, slots, slots, (),
                  False, duplex)


def card_pixels(opts: CardOptions) -> tuple[int, int, float]:
    """A card's width and height in pixels on a TTS sheet, and the pixels per mm."""
    w, h = opts.size.width, opts.size.height
    per_mm = min((MAX_PX // TTS_COLS) / w, (MAX_PX // TTS_ROWS) / h)
    return round(w * per_mm), round(h * per_mm), per_mm


def png_bytes(width: int, height: int, rows: Sequence[bytes]) -> bytes:
    """An 8-bit RGB PNG (no filter), deterministic."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def rasterise(pdf: bytes, per_mm: float, pages: Sequence[int] | None = None) -> list[bytes]:
    """PNG bytes of the PDF's pages at ``per_mm`` pixels per millimetre."""
    import pypdfium2 as pdfium  # here: only --png needs it, and it loads a native library

    document = pdfium.PdfDocument(pdf)
    out = []
    try:
        for index in pages if pages is not None else range(len(document)):
            page = document[index]
            bitmap = page.render(scale=per_mm * 25.4 / 72, rev_byteorder=True)
            width, height, stride = bitmap.width, bitmap.height, bitmap.stride
            channels = bitmap.n_channels
            data = bytes(bitmap.buffer)
            rows = []
            for y in range(height):
                line = data[y * stride: y * stride + width * channels]
                if channels == 4:
                    line = b"".join(line[i:i + 3] for i in range(0, len(line), 4))
                rows.append(line)
            out.append(png_bytes(width, height, rows))
    finally:
        document.close()
    return out


def write_tts_sheets(
    ruleset: Ruleset, decks: Sequence[DeckPrint], opts: CardOptions, folder: Path
) -> list[Path]:
    """Per deck: ``<ruleset>-<deck>-<n>.png`` sheets of fronts and ``-back.png``."""

    flat = replace(opts, bleed=0.0, gutter=0.0, duplex="none", back_offset=(0.0, 0.0),
                   fold=False)
    _, _, per_mm = card_pixels(flat)
    w, h = flat.size.width, flat.size.height
    written: list[Path] = []
    for deck in decks:
        # Long-edge "duplex" on a grid without margins: a page of fronts, then one of backs.
        grid = _grid(flat, TTS_COLS, TTS_ROWS, "long")
        printed = render_cards(ruleset, [deck], flat, grid, notes=False)  # no paper
        fronts = range(0, printed.pages, 2)
        for n, image in enumerate(rasterise(printed.pdf, per_mm, fronts), start=1):
            path = folder / f"{ruleset.id}-{deck.id}-{n}.png"
            write_atomic(path, image)
            written.append(path)
        back = next(iter(printed.pieces.backs.values()))
        alone = Sheet(w, h, (Placed(back, 0.0, 0.0, w, h, (0.0, 0.0, w, h)),))
        info = Info(deck.back_title, "", "", ruleset.info.language, "TowerPress")
        image = rasterise(compose(printed.pieces.pdfs, [alone], info), per_mm)[0]
        path = folder / f"{ruleset.id}-{deck.id}-back.png"
        write_atomic(path, image)
        written.append(path)
    return written
