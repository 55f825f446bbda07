"""Fronts laid out together on one tall page and cut apart draw exactly as if laid out alone."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path
from typing import Any

import pypdf
import pytest

from generator.model.decks import Card
from generator.products.cards.imposition import card_size
from generator.products.cards.pieces import (
    PX_PER_MM,
    ROOM,
    FrontJob,
    base_size,
    lay_out_batch,
    write_pieces,
)
from generator.rulesets import load_content

PT_PER_PX = 0.75
SIZE = card_size("poker")


def _pages(pdf: bytes) -> list[tuple[bytes, float, float]]:
    """Each page's content stream and size in pt."""
    found = []
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        stream = page.get_contents()
        assert stream is not None
        found.append((stream.get_data(), float(page.mediabox.width), float(page.mediabox.height)))
    return found


def _cards(ruleset_id: str) -> tuple[Path, list[Card]]:
    ruleset = load_content().ruleset(ruleset_id)
    return ruleset.root, [c for d in ruleset.decks.values()
                          for c in ruleset.cards(d, ruleset.profile())]


def _alone(job: FrontJob, root: Path) -> bytes:
    """``job``'s front laid out in a batch of its own and written."""
    batch = lay_out_batch([job], [], SIZE, root)
    return write_pieces(batch.document, batch.measures, [], SIZE)


@pytest.mark.parametrize("ruleset_id", ["inverted-tower", "three-dice-dungeon"])
def test_a_cut_front_draws_as_one_laid_out_alone(ruleset_id: str) -> None:
    """Reference cards (tables with shaded rows) and monster cards (stats, floated dice):
    each front of a batch is drawn, backgrounds included, exactly as in a batch of its own."""
    root, cards = _cards(ruleset_id)
    picked = [c for c in cards if c.tables][:2] + [c for c in cards if c.stats][:1]
    assert len(picked) >= 2
    font = base_size(SIZE.width) - 3  # small enough that every one fits
    jobs = [FrontJob(card, font) for card in picked]
    together = lay_out_batch(jobs, [], SIZE, root)
    assert all(m.overflow.ratio <= 1.0 for m in together.measures)
    pages = _pages(write_pieces(together.document, together.measures, [], SIZE))
    assert len(pages) == len(jobs)
    for job, page in zip(jobs, pages, strict=True):
        assert _pages(_alone(job, root)) == [page], job.card.title
        _, width, height = page
        assert width == pytest.approx(SIZE.width * PX_PER_MM * PT_PER_PX, abs=0.01)
        assert height == pytest.approx(SIZE.height * ROOM * PX_PER_MM * PT_PER_PX, abs=0.01)


def test_a_front_below_a_long_one_is_measured_on_its_own() -> None:
    """A front that overflows by far does not change what the next one measures."""
    root, cards = _cards("tower-of-choices")
    short, long_ = cards[0], cards[1]
    font = base_size(SIZE.width)
    longer = replace(long_, fields=tuple((label, " ".join([text] * 12))
                                         for label, text in long_.fields))
    together = lay_out_batch([FrontJob(longer, font), FrontJob(short, font)], [], SIZE, root)
    alone = lay_out_batch([FrontJob(short, font)], [], SIZE, root)
    over, under = (m.overflow for m in together.measures)
    assert over.ratio > 1.0
    # Laid out lower on the page, its height may differ in the last bit of a float.
    assert under.height == pytest.approx(alone.measures[0].overflow.height, rel=1e-9)
    assert under.width == pytest.approx(alone.measures[0].overflow.width, rel=1e-9)
    written = write_pieces(together.document, together.measures[1:], [], SIZE)
    assert _pages(written) == _pages(_alone(FrontJob(short, font), root))


def _font_files(pdf: bytes) -> list[str]:
    """The name of every embedded font program the pages use, once per program."""
    found: dict[int, str] = {}
    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        resources: Any = page["/Resources"]
        for ref in resources["/Font"].values():
            descendant = ref.get_object()["/DescendantFonts"][0].get_object()
            descriptor = descendant.raw_get("/FontDescriptor")  # its reference: one per program
            found[descriptor.idnum] = str(descriptor.get_object()["/FontName"]).split("+")[-1]
    return list(found.values())


def test_pieces_of_two_batches_share_one_subset_of_each_font() -> None:
    """The fitter writes the fronts of every round together: each font is embedded once."""
    root, cards = _cards("tower-of-choices")
    font = base_size(SIZE.width)
    first = lay_out_batch([FrontJob(cards[0], font)], [], SIZE, root)
    second = lay_out_batch([FrontJob(cards[1], font - 1)], [], SIZE, root)
    both = write_pieces(first.document, [*first.measures, *second.measures], [], SIZE)
    fonts = _font_files(both)
    assert fonts and len(fonts) == len(set(fonts))
    assert _pages(both) == [*_pages(_alone(FrontJob(cards[0], font), root)),
                            *_pages(_alone(FrontJob(cards[1], font - 1), root))]
