"""A booklet's tapes drawn as pictures (SVG): rows of cells, each a die face or a number to
strike through, the row's first entry counted at its left.

A tape is hundreds of entries; laid out as table cells it cost as much as all the
sections together, and as one picture a block of rows costs next to nothing.  Rows come in
blocks of :data:`ROWS_A_BLOCK`, so a long tape flows over pages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import escape

from generator.render.fonts import SANS
from generator.render.svg import dice_paths, title

CELL = 7.0  # mm: a cell of a one-value tape
NUMBER_CELL = 16.0  # mm: a cell holding a number past six
PART_CELL = 14.0  # mm: a column of a tape of several values an entry
INDEX = 7.0  # mm: the column counting entries
HEAD = 5.0  # mm: the parts' names above a tape of several values
DIE = 4.6  # mm: a die face in its cell
ROWS_A_BLOCK = 10
INK, LINE = "#222", "#888"


def tape_blocks(tape: Mapping[str, Any], width_mm: float) -> list[str]:
    """``tape`` (as the booklet's JSON holds it) as SVG pictures of at most
    :data:`ROWS_A_BLOCK` rows each, no wider than ``width_mm``."""
    entries = [tuple(entry) for entry in tape["entries"]]
    dice = tape["high"] <= 6
    if len(tape["parts"]) > 1:
        rows = [(i + 1, entry) for i, entry in enumerate(entries)]
        return [_block(chunk, PART_CELL, dice, tuple(tape["parts"]))
                for chunk in _chunks(rows)]
    cell = CELL if dice else NUMBER_CELL
    across = max(1, min(10, int((width_mm - INDEX) // cell)))
    values = [entry[0] for entry in entries]
    rows = [(i + 1, tuple(values[i:i + across])) for i in range(0, len(values), across)]
    return [_block(chunk, cell, dice, ()) for chunk in _chunks(rows)]


def _chunks(rows: Sequence[tuple[int, tuple[int, ...]]]
            ) -> list[Sequence[tuple[int, tuple[int, ...]]]]:
    return [rows[i:i + ROWS_A_BLOCK] for i in range(0, len(rows), ROWS_A_BLOCK)]


def _block(rows: Sequence[tuple[int, tuple[int, ...]]], cell: float, dice: bool,
           parts: tuple[str, ...]) -> str:
    across = max(len(values) for _, values in rows)
    top = HEAD if parts else 0.0
    width, height = INDEX + across * cell, top + len(rows) * CELL
    shapes = [_head(parts, cell)] if parts else []
    boxes, dice_at, numbers = [], [], []
    for r, (first, values) in enumerate(rows):
        y = top + r * CELL
        shapes.append(f'<text x="{INDEX - 1.6}" y="{y + CELL / 2 + 1:.2f}" '
                      f'text-anchor="end" fill="#666" font-size="2.5">{first}</text>')
        for c, value in enumerate(values):
            x = INDEX + c * cell
            boxes.append(f"M{x:.2f} {y:.2f}h{cell:.2f}v{CELL}h{-cell:.2f}z")
            if dice:
                dice_at.append((x + (cell - DIE) / 2, y + (CELL - DIE) / 2, value))
            else:
                numbers.append(f'<text x="{x + cell / 2:.2f}" y="{y + CELL / 2 + 1.1:.2f}" '
                               f'text-anchor="middle" font-size="3.2" fill="{INK}">'
                               f"{value}</text>")
    shapes.append(f'<path d="{"".join(boxes)}" fill="none" stroke="{LINE}" '
                  'stroke-width="0.18"/>')
    shapes.append(dice_paths(dice_at, DIE) if dice else "".join(numbers))
    label = ", ".join(" ".join(str(v) for v in values) for _, values in rows)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'viewBox="0 0 {width:.2f} {height:.2f}" width="{width:.2f}mm" '
            f'height="{height:.2f}mm" role="img" aria-label="{escape(label)}" '
            f'font-family="{SANS}">{title(label)}{"".join(shapes)}</svg>')


def _head(parts: tuple[str, ...], cell: float) -> str:
    return "".join(f'<text x="{INDEX + (i + 0.5) * cell:.2f}" y="{HEAD - 1.3}" '
                   f'text-anchor="middle" font-size="2.6" font-weight="700">'
                   f"{escape(part)}</text>" for i, part in enumerate(parts))
