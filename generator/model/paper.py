"""The paper sizes TowerPress prints on, defined once (design.md section 7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from generator.errors import TowerpressError


@dataclass(frozen=True)
class Paper:
    """A sheet of paper, portrait: its size in millimetres and as CSS ``@page`` names it.

    The CSS size is kept as a printer's catalogue gives it (Letter in inches), so that a
    PDF's page box is the paper's exact size in points."""

    id: str
    width_mm: float
    height_mm: float
    css_size: str


PAPERS: Mapping[str, Paper] = MappingProxyType({p.id: p for p in (
    Paper("a4", 210, 297, "210mm 297mm"),
    Paper("letter", 215.9, 279.4, "8.5in 11in"),
    Paper("a5", 148, 210, "148mm 210mm"),
)})

#: Card sheets: the papers a home printer feeds for duplex (A5 holds too few cards).
CARD_PAPERS: tuple[str, ...] = ("a4", "letter")


def paper(paper_id: str, allowed: tuple[str, ...] = tuple(PAPERS)) -> Paper:
    """The paper named ``paper_id``.

    Raises:
        TowerpressError: not one of ``allowed``; the message lists them.
    """
    if paper_id not in allowed:
        raise TowerpressError(f"unknown paper {paper_id!r} (expected one of: "
                              f"{', '.join(allowed)})")
    return PAPERS[paper_id]
