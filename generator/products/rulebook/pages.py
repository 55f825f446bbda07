"""Where the rulebook's chapters start: a new page, or on the page the one before ends.

The rule: a chapter (or an appendix) starts a new page unless the page the one before ends
on is less than half full; then it follows on that page, after a gap.  So a chapter never
opens in the lower half of a page with a paragraph or two, and no page is left more than
half empty at a chapter's end but where the book's parts end or a table or a worked
example moves whole to the next page.  (Every chapter on a new page left Tower of Choices'
short chapters a third of a page each; every chapter following on opened some in the last
third of a page, and pushed others over after a gap.)

Where a chapter ends depends on where it starts, so the book is measured once with every
part on a new page, its section marked by :data:`PART` + its anchor (:func:`measured`): a
part that starts a new page ends where it ended there, and a part that follows on takes
the room its text took there (its height on each page, without the space its pages left
at their feet), from where the one before ended.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from generator.render import weasyprint_internals

PART = "part-"  # + the part's anchor: the id of its section in the measuring pass
HALF = 0.5  # a part follows on a page filled less than this


@dataclass(frozen=True)
class MeasuredPage:
    """One page of the measuring pass: the top and foot of each part's section on it,
    and its content box, in CSS pixels from the top of the page."""

    parts: Mapping[str, tuple[float, float]]
    top: float
    height: float

    def share(self, y: float) -> float:
        """How far down the content box ``y`` is, as a share of its height."""
        return (y - self.top) / self.height


def measured(pages: Sequence[Any]) -> list[MeasuredPage]:
    """The measuring pass's WeasyPrint pages, read."""
    found = []
    for page in pages:
        box = weasyprint_internals.page_box(page)
        found.append(MeasuredPage(dict(_sections(box)), box.content_box_y(), box.height))
    return found


def _sections(page_box: Any) -> Iterator[tuple[str, tuple[float, float]]]:
    """Each part's section on the page: its top, and the foot of what it holds there (a
    section that goes on to the next page reaches the foot of this one's box)."""
    for box in page_box.descendants():
        anchor = box.style["anchor"]
        if isinstance(anchor, str) and anchor.startswith(PART) and box.element_tag == "section":
            feet = [inner.position_y + inner.margin_height() for inner in box.descendants()
                    if _is_line_or_row(inner)]
            yield anchor[len(PART):], (box.border_box_y(), max(feet, default=box.position_y))


def _is_line_or_row(box: Any) -> bool:
    """A line of text, a table's row or a picture: what a page's content ends with."""
    from weasyprint.formatting_structure import boxes

    return isinstance(box, (boxes.LineBox, boxes.TableRowBox, boxes.ReplacedBox))


def flows(pages: Sequence[MeasuredPage], gap: float, laid: Sequence[MeasuredPage] = (),
          placed_there: Mapping[str, bool] | None = None) -> dict[str, bool]:
    """For each part the measuring pass marked (by its anchor, in the book's order),
    whether it follows on the page before rather than starting a new one; ``gap`` is the
    space above a part that follows on, in CSS pixels.  The first part always starts a
    new page.

    ``laid``: the book laid out with the parts ``placed_there``, whose page feet are
    taken as they are up to the first part placed against the rule (a table that moved
    whole to the next page makes an estimate wrong by a third of a page).
    """
    placed: dict[str, bool] = {}
    filled = 1.0  # how full the page the last part ended on is, as a share of a page
    trusted = placed_there is not None
    for anchor in _parts(pages):
        follows = bool(placed) and filled < HALF
        placed[anchor] = follows
        trusted = trusted and placed_there is not None and placed_there.get(anchor) == follows
        there = [page for page in laid if anchor in page.parts] if trusted else []
        if there:
            filled = there[-1].share(there[-1].parts[anchor][1])
            continue
        trusted = False
        on = [page for page in pages if anchor in page.parts]
        if follows:
            height = sum(page.share(page.parts[anchor][1]) - page.share(page.parts[anchor][0])
                         for page in on)
            filled = filled + gap / on[0].height + height
            while filled > 1:
                filled -= 1
        else:
            filled = on[-1].share(on[-1].parts[anchor][1])
    return placed


def _parts(pages: Sequence[MeasuredPage]) -> list[str]:
    """The parts' anchors in the order they start on the pages."""
    return list(dict.fromkeys(
        anchor for page in pages
        for anchor, _ in sorted(page.parts.items(), key=lambda item: item[1][0])))
