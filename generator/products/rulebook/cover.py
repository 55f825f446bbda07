"""A rulebook's cover: a drawing of the ruleset's own motif, and its credits set for the page.

The motif and the numbers it draws come from ``ruleset.toml``'s ``[cover]`` table
(:mod:`generator.model.cover`); the drawings are :mod:`generator.products.rulebook.motifs`.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from markupsafe import Markup, escape

from generator.model.common import Credit
from generator.model.loader import Ruleset
from generator.model.paper import Paper
from generator.products.rulebook.motifs import MOTIFS
from generator.render.svg import title


@dataclass(frozen=True)
class CreditLine:
    """One author's works, as the cover names them: the author once."""

    works: str
    author: str


@dataclass(frozen=True)
class CoverView:
    """What ``rulebook/cover.html`` reads besides the ruleset's info."""

    art: Markup
    above: str  # the room above the drawing, a CSS length: as much as below it
    credits: tuple[CreditLine, ...]
    font_size: str  # the cover's type, a CSS length


#: The drawing's height at most, as a share of the page's.
ART_SHARE = 0.5
_PT = 25.4 / 72  # mm
#: The cover's type at most, in points per millimetre of the page's width: A5's book type,
#: set large for reading on a small page, would crowd its cover (9.5 pt gives 8.6 pt).
_TYPE_PER_MM = 0.058
_GAP_MM = 6.0  # the least room above and below the drawing


def cover_view(ruleset: Ruleset, page: Paper, font_pt: float) -> CoverView:
    """The cover's drawing, as large as the frame leaves room for between the title above
    it and the description and credits at its foot (set in ``font_pt``), and centred in
    that room; and the credits."""
    credits = credit_lines(ruleset.info.credits)
    font_pt = min(font_pt, round(page.width_mm * _TYPE_PER_MM, 1))
    body = MOTIFS[ruleset.info.cover.motif](ruleset)
    inner = page.width_mm - 28 - 2 * 9  # the frame's margin and padding (cover.css)
    head, foot = _text_mm(ruleset, credits, inner, font_pt)
    free = page.height_mm - 28 - head - foot
    art_height = max(20.0, min(page.height_mm * ART_SHARE, free - 2 * _GAP_MM,
                               inner * body.height / body.width))
    art = Markup(
        f'<svg class="cover-art cover-{ruleset.info.cover.motif}" role="img" '
        f'aria-label="{escape(ruleset.info.title)}" '
        f'width="{art_height * body.width / body.height:.2f}mm" height="{art_height:.2f}mm" '
        f'viewBox="{body.box}">{title(ruleset.info.title)}{body.shapes}</svg>')
    above = max(0.0, (free - art_height) / 2)
    return CoverView(art, f"{above:.2f}mm", credits, f"{font_pt}pt")


def _text_mm(ruleset: Ruleset, credits: Iterable[CreditLine], inner_mm: float,
             font_pt: float) -> tuple[float, float]:
    """About how tall the cover's text sets above the drawing and at the frame's foot, from
    the sizes in cover.css and the mean width of a letter of each face (measured on these
    covers, in ems): the drawing takes the room left between them on every paper, and
    never pushes the description into the credits."""
    info, f, width = ruleset.info, font_pt, inner_mm / _PT

    def block(text: str, size: float, letter: float, leading: float = 1.38,
              share: float = 1.0) -> float:
        per_line = max(8, int(width * share / (size * letter)))
        return len(textwrap.wrap(text, per_line)) * size * leading

    head = 3 * f + 0.85 * f * 1.38 + 1.6 * 0.85 * f  # the padding, the kicker
    head += block(info.title, 2.9 * f, 0.53, 1.08) + 0.25 * 2.9 * f
    head += block(info.subtitle, 1.2 * f, 0.43)
    foot = block(info.description, f, 0.46, share=0.88) + 1.4 * f
    foot += sum(block(f"{c.works} by {c.author}", 0.85 * f, 0.44) + 0.25 * 0.85 * f
                for c in credits)
    foot += 0.9 * 0.85 * f + 0.85 * f * 1.38
    return head * _PT, foot * _PT + 7  # the foot's place above the frame's edge


def credit_lines(credits: Iterable[Credit]) -> tuple[CreditLine, ...]:
    """The credits grouped by author, in the order the authors first appear: "The Inverted
    Tower, Draft 3 and Draft 4.5" once "by" their one author, not the author twice."""
    works: dict[str, list[str]] = {}
    for credit in credits:
        works.setdefault(credit.author, []).append(credit.work)
    return tuple(CreditLine(_joined(titles), author) for author, titles in works.items())


def _joined(titles: list[str]) -> str:
    """"A, Draft 3" and "A, Draft 4.5" as "A, Draft 3 and Draft 4.5": a lead the titles
    share up to a comma is said once."""
    heads = {t.rpartition(", ")[0] for t in titles}
    lead = ""
    if len(titles) > 1 and len(heads) == 1 and "" not in heads:
        lead = f"{heads.pop()}, "
        titles = [t[len(lead):] for t in titles]
    listed = titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"
    return lead + listed
