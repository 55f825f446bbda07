"""``check`` on tampered booklets: every way of tampering with one that the issue names
fails with its own code (each ruleset's own cases are in its tests, with the many seeds
that pass: tests/<ruleset>/test_booklet_seeds.py)."""

from __future__ import annotations

from typing import Any

import pytest

from generator.engine.booklet import check_document
from generator.engine.family import family_of
from generator.model.loader import Content
from tests.content import RULESETS
from tests.products.booklet.support import booklet, codes, edited


def _first(document: dict[str, Any], kind: str | None = None) -> dict[str, Any]:
    """The first section with a way on (of ``kind``, when given)."""
    return next(s for s in document["sections"]
                if s["turn_to"] and (kind is None or s["kind"] == kind))


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_dangling_turn_to_is_found(content: Content, ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    _first(document)["turn_to"][0]["section"] = len(document["sections"]) + 5
    assert "turn-to" in codes(content, document)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_an_unreachable_section_is_found(content: Content, ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    target = document["sections"][-1]["number"]
    for section in document["sections"]:
        section["turn_to"] = [w for w in section["turn_to"] if w["section"] != target]
    assert "section-unreachable" in codes(content, document)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_tape_value_out_of_range_is_found(content: Content, ruleset_id: str) -> None:
    """A 7 on a d6 tape (Tower of Choices' shuffle tape runs to 2520)."""
    document = edited(booklet(content, ruleset_id))
    tape = next(t for t in document["tapes"] if t["entries"])
    tape["entries"][0][0] = tape["high"] + 1
    assert ruleset_id == "tower-of-choices" or tape["high"] + 1 == 7
    assert "tape-value" in codes(content, document)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_changed_text_is_found_by_making_the_booklet_again(content: Content,
                                                             ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    _first(document)["text"].append("And a chest of gold no one rolled for.")
    assert codes(content, document) == {"regenerated"}


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_document_of_another_shape_breaks_the_schema(content: Content,
                                                       ruleset_id: str) -> None:
    document = edited(booklet(content, ruleset_id))
    document["sections"][0]["number"] = "one"
    del document["tapes"]
    found = check_document(document, content.ruleset(ruleset_id),
                           family_of(content.ruleset(ruleset_id)))
    assert {f.code for f in found} == {"schema"}
    assert {f.where for f in found} >= {"sections[0].number", "document"}


def test_an_unknown_profile_is_named(content: Content) -> None:
    document = edited(booklet(content, "inverted-tower"))
    document["profile"]["id"] = "easy"
    assert codes(content, document) == {"profile"}


def test_a_booklet_of_another_generator_is_not_made_again(content: Content) -> None:
    document = edited(booklet(content, "inverted-tower"))
    document["generator"] = "0.0.1"
    assert codes(content, document) == {"generator"}
