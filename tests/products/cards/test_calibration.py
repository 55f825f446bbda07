"""The calibration sheet, read from its PDF: a printer that shifts the backs is measured by
it, and the offset it reads puts every card's back behind its front on that printer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pdfplumber
import pytest

from generator.model.paper import PAPERS
from generator.products.cards.printing import select_decks
from generator.rulesets import load_content
from tests.commands import run_here
from tests.products.cards.support import MM, TOL, render, white_rects

SCALE_LINE = 12.0  # mm: the length of each line of the two scales, front and back


Line = tuple[float, float, float, float]  # x0, top, x1, bottom in mm


def scale_lines(page: Any) -> tuple[list[Line], list[Line]]:
    """The vertical and the horizontal scale lines, sorted."""
    vertical, horizontal = [], []
    for line in page.lines:
        x0, top, x1, bottom = (line[k] / MM for k in ("x0", "top", "x1", "bottom"))
        if abs(x1 - x0) < 0.01 and abs(bottom - top - SCALE_LINE) < 0.05:
            vertical.append((x0, top, x1, bottom))
        elif abs(bottom - top) < 0.01 and abs(x1 - x0 - SCALE_LINE) < 0.05:
            horizontal.append((x0, top, x1, bottom))
    return sorted(vertical), sorted(horizontal, key=lambda line: line[1])


def labels(page: Any) -> tuple[dict[float, float], dict[float, float]]:
    """Each back scale line's label, by the line's x (X scale) or y (Y scale)."""
    words = [((w["x0"] + w["x1"]) / 2 / MM, (w["top"] + w["bottom"]) / 2 / MM,
              w["top"] / MM, w["text"]) for w in page.extract_words()]

    def one(found: list[str]) -> float:
        assert len(found) == 1, found
        return float(found[0].replace("\u2212", "-"))

    def beyond(cx: float, x0: float, x1: float) -> bool:
        """Past one end of the line, by at most 12 mm."""
        return 0 < cx - x1 < 12 or 0 < x0 - cx < 12

    vertical, horizontal = scale_lines(page)
    # X labels sit past an end of their lines; Y labels beside theirs.
    by_x = {x0: one([t for cx, cy, _, t in words
                     if abs(cx - x0) < 0.5 and (0 < cy - bottom < 6 or 0 < top - cy < 6)])
            for x0, top, _, bottom in vertical}
    by_y = {y: one([t for cx, cy, _, t in words if abs(cy - y) < 0.8 and beyond(cx, x0, x1)])
            for x0, y, x1, _ in horizontal}
    return by_x, by_y


def seen_from_front(x: float, y: float, paper: str, duplex: str) -> tuple[float, float]:
    """Where a point of the back lies on the front, once the sheet is turned over."""
    w, h = PAPERS[paper].width_mm, PAPERS[paper].height_mm
    return (w - x, y) if duplex == "long" else (x, h - y)


def read_offset(path: Path, paper: str, duplex: str,
                shift: tuple[float, float]) -> tuple[float, float]:
    """What a user reads from the sheet printed by a printer that moves the back by
    ``shift`` mm: the labels of the back lines that meet a front line."""
    with pdfplumber.open(path) as pdf:
        front, back = pdf.pages
        vertical, horizontal = scale_lines(front)
        front_x, front_y = [line[0] for line in vertical], [line[1] for line in horizontal]
        back_x, back_y = labels(back)
    assert len(front_x) == len(back_x) == len(front_y) == len(back_y) == 17
    dx, dy = shift

    def miss_x(x: float) -> float:
        fx, _ = seen_from_front(x + dx, 0.0, paper, duplex)
        return min(abs(fx - f) for f in front_x)

    def miss_y(y: float) -> float:
        _, fy = seen_from_front(0.0, y + dy, paper, duplex)
        return min(abs(fy - f) for f in front_y)

    best_x, best_y = min(back_x, key=miss_x), min(back_y, key=miss_y)
    assert miss_x(best_x) < TOL and miss_y(best_y) < TOL  # a line meets a line
    return back_x[best_x], back_y[best_y]


@pytest.mark.parametrize(("paper", "duplex", "shift"), [
    ("a4", "long", (1.5, -0.5)),
    ("a4", "short", (-2.0, 1.0)),
    ("letter", "long", (-0.5, 3.0)),
    ("letter", "short", (2.5, -1.5)),
])
def test_the_offset_read_puts_backs_behind_fronts(
    tmp_path: Path, paper: str, duplex: str, shift: tuple[float, float]
) -> None:
    sheet = tmp_path / "calibration.pdf"
    result = run_here("cards", "calibrate", "--paper", paper, "--duplex", duplex, "-o", str(sheet))
    assert result.returncode == 0, result.stderr
    with pdfplumber.open(sheet) as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            size = (PAPERS[paper].width_mm, PAPERS[paper].height_mm)
            assert (page.width / MM, page.height / MM) == pytest.approx(size, abs=TOL)
        # The instructions end well above the scales, and no text runs into a line.
        front = pdf.pages[0]
        vertical, _ = scale_lines(front)
        words = front.extract_words()
        assert max(w["bottom"] / MM for w in words if w["top"] / MM < vertical[0][1]) \
            < vertical[0][1] - 3
        for page in pdf.pages:
            for word in page.extract_words():
                for line in page.lines:
                    assert not (word["x0"] < line["x1"] and line["x0"] < word["x1"]
                                and word["top"] < line["bottom"] and line["top"] < word["bottom"])
        # Held to the light, no label of the back lies over a front line: it would strike
        # through the number to be read.
        front_lines = [(line["x0"] / MM, line["top"] / MM, line["x1"] / MM,
                        line["bottom"] / MM) for line in pdf.pages[0].lines]
        for word in pdf.pages[1].extract_words():
            corners = [seen_from_front(word[a] / MM, word[b] / MM, paper, duplex)
                       for a, b in (("x0", "top"), ("x1", "bottom"))]
            (x0, x1), (y0, y1) = (sorted(c[i] for c in corners) for i in (0, 1))
            assert not [line for line in front_lines
                        if x0 - 0.3 < line[2] and line[0] < x1 + 0.3
                        and y0 - 0.3 < line[3] and line[1] < y1 + 0.3], word["text"]
    offset = read_offset(sheet, paper, duplex, shift)
    assert offset == pytest.approx((-shift[0], -shift[1]))

    # The cards printed with that offset, on the same printer.
    ruleset = load_content().ruleset("inverted-tower")
    decks = select_decks(ruleset, "items", ruleset.profile())
    cards = render("inverted-tower", tmp_path / "cards.pdf", decks, paper=paper,
                   duplex=duplex, back_offset=offset)
    with pdfplumber.open(cards) as pdf:
        for front, back in zip(pdf.pages[0::2], pdf.pages[1::2], strict=True):
            fronts = white_rects(front)
            landed = []
            for x, y, w, h in white_rects(back):
                # The printer moves the back; turned over, the far corner is the near one.
                cx, cy = seen_from_front(x + shift[0] + w / 2, y + shift[1] + h / 2,
                                         paper, duplex)
                landed.append((cx - w / 2, cy - h / 2, w, h))
            assert len(landed) == len(fronts) > 0
            for got, want in zip(sorted(landed, key=lambda r: (round(r[1]), r[0])),
                                 sorted(fronts, key=lambda r: (round(r[1]), r[0])),
                                 strict=True):
                assert got == pytest.approx(want, abs=TOL)


def test_calibrate_usage_names_the_subcommand() -> None:
    result = run_here("cards", "calibrate", "--help")
    assert result.returncode == 0
    assert result.stdout.splitlines()[0] == "Usage: towerpress cards calibrate [OPTIONS]"
