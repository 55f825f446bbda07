"""The booklet's pages on each paper: their size, margins and type, and the sheets an
imposed booklet prints on (design.md 7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from generator.errors import TowerpressError

PX_PER_MM = 96 / 25.4  # CSS pixels, as WeasyPrint lays out


@dataclass(frozen=True)
class BookletPaper:
    """A booklet's page: ``id`` names the paper the booklet is asked for (``a5``,
    ``letter``...), and ``sheet`` the paper an imposed booklet prints on, two pages a side
    (empty: not imposed)."""

    id: str
    width_mm: float
    height_mm: float
    margin_top_mm: float
    margin_outer_mm: float
    margin_bottom_mm: float
    margin_inner_mm: float
    font_size_pt: float
    gap_mm: float = 5.0  # below each section
    cover_inset_mm: float = 9.0
    sheet: tuple[float, float] | None = None  # landscape sheet, mm

    @property
    def css_size(self) -> str:
        return f"{self.width_mm}mm {self.height_mm}mm"

    @property
    def body_width_mm(self) -> float:
        return self.width_mm - self.margin_inner_mm - self.margin_outer_mm

    @property
    def body_height_mm(self) -> float:
        return self.height_mm - self.margin_top_mm - self.margin_bottom_mm

    @property
    def body_height_px(self) -> float:
        return self.body_height_mm * PX_PER_MM

    @property
    def margin_top_px(self) -> float:
        return self.margin_top_mm * PX_PER_MM


#: The papers a booklet is printed on.  A5 and half-letter booklets are a sheet of A4 or
#: Letter folded: imposed, two pages a side.
BOOKLET_PAPERS: Mapping[str, BookletPaper] = MappingProxyType({
    "a5": BookletPaper("a5", 148, 210, 13, 11, 14, 14, 8.8, gap_mm=4.5, sheet=(297, 210)),
    "a4": BookletPaper("a4", 210, 297, 20, 20, 22, 24, 10.5, gap_mm=6),
    "letter": BookletPaper("letter", 215.9, 279.4, 19, 20, 21, 24, 10.5, gap_mm=6),
})
#: Letter imposed: half-letter pages (5.5 x 8.5 in), two a side of a Letter sheet.
HALF_LETTER = BookletPaper("half-letter", 139.7, 215.9, 13, 11, 14, 14, 8.8, gap_mm=4.5,
                           sheet=(279.4, 215.9))
IMPOSED: Mapping[str, BookletPaper] = MappingProxyType({
    "a5": BOOKLET_PAPERS["a5"], "letter": HALF_LETTER})


def booklet_paper(paper_id: str, imposed: bool = False) -> BookletPaper:
    """The booklet's page on ``paper_id``, folded from sheets when ``imposed``.

    Raises:
        TowerpressError: an unknown paper, or one that does not fold (A4).
    """
    if paper_id not in BOOKLET_PAPERS:
        raise TowerpressError(f"unknown paper {paper_id!r} (expected one of: "
                              f"{', '.join(BOOKLET_PAPERS)})")
    if imposed and paper_id not in IMPOSED:
        raise TowerpressError(f"a booklet on {paper_id} pages cannot be imposed for folding "
                              f"(expected --paper {' or '.join(IMPOSED)}: A4 or Letter "
                              "sheets folded in two)")
    return IMPOSED[paper_id] if imposed else BOOKLET_PAPERS[paper_id]
