"""Logs: pages per second, laid out and written, as ``towerpress log`` does.

Run: ``.venv/bin/python -m bench log_pages``.  Each ruleset's log at its own length, A4,
then 3 Dice Dungeon's map sheet at 99 levels (198 pages: ``towerpress log
three-dice-dungeon --floors 99``), the measure of issue 27.  The whole of
:func:`~generator.products.sheets.render.write_sheet`: the measuring layout of the notes
that fill their page, the layout, the fields copied from their templates, the PDF written.
Process CPU seconds, the best of two (one run of the 198 pages), beside the wall clock: on a
shared machine the CPU time holds still where the wall clock does not.  Before the grids and
ruled rows were drawn as pictures (issue 27), the 198 pages took 102-149 s.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from generator.products.sheets.render import write_sheet
from generator.rulesets import load_content

LONG = ("three-dice-dungeon", 99)  # levels: the longest log a player can ask for


def _timed(ruleset_id: str, floors: int | None, out: Path, repeats: int) -> tuple[int, float,
                                                                                   float]:
    """Pages, and the best CPU and wall seconds of ``repeats`` runs."""
    ruleset = load_content().ruleset(ruleset_id)
    pages, cpu, wall = 0, float("inf"), float("inf")
    for _ in range(repeats):
        start, clock = time.process_time(), time.perf_counter()
        pages = write_sheet(ruleset, "log", out, paper="a4", floors=floors)
        cpu = min(cpu, time.process_time() - start)
        wall = min(wall, time.perf_counter() - clock)
    return pages, cpu, wall


def run(argv: list[str] | None = None) -> None:
    """Print pages per second of each log; ``argv`` may name the long log's levels."""
    levels = int(argv[0]) if argv else LONG[1]
    content = load_content()
    with tempfile.TemporaryDirectory(prefix="bench-log-") as folder:
        out = Path(folder) / "log.pdf"
        _timed(LONG[0], 1, out, 1)  # warm: WeasyPrint, the fonts
        print("logs, A4: pages, CPU seconds (best of 2; of 1 for the long one), pages/s; "
              "wall seconds in brackets")
        runs = [(rid, None, 2) for rid in content.rulesets] + [(LONG[0], levels, 1)]
        for ruleset_id, floors, repeats in runs:
            pages, cpu, wall = _timed(ruleset_id, floors, out, repeats)
            length = "default" if floors is None else f"--floors {floors}"
            print(f"{ruleset_id:<20}{length:<13}{pages:>5} pages {cpu:>7.2f} s "
                  f"{pages / cpu:>6.1f} pages/s  ({wall:.2f} s, {pages / wall:.1f} pages/s)")


if __name__ == "__main__":
    run(sys.argv[1:])
