"""One source of truth (design.md section 2): a number edited in content/ changes the
printed rulebook and what the engine computes, in one load, for every ruleset."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from generator.engine.family import family_of
from generator.products.rulebook.html import rulebook_html
from generator.rulesets import load_content
from tests.content import edit

CASES = [
    # ruleset, file, old text, new text, odds query, its parameters, label, old and new value
    (
        "inverted-tower",
        "rolls.toml",
        "target = 5",
        "target = 4",
        "hit",
        {"attr": 1, "floor": 1, "level": 1, "elite": 0, "daggers": 0},
        "P(hit) without daggers",
        Fraction(1, 3),
        Fraction(1, 2),
    ),
    (
        "three-dice-dungeon",
        "monsters.toml",
        "hp = 20",
        "hp = 40",
        "kill",
        {"monster": 2, "elite": 0, "die": 0, "str": 3, "attr": 4, "bonus": 0, "abilities": 0},
        "expected damage taken to kill Goblins",
        Fraction(28),
        Fraction(56),
    ),
    (
        "tower-of-choices",
        "checks.toml",
        "draw = 2",
        "draw = 3",
        "check",
        {"deck": -1, "matching": -1, "challenges": 0, "wild": 0, "draw": -1, "target": -1},
        "success",
        Fraction(3, 5),
        Fraction(4, 5),
    ),
]


def odds(root: Path, ruleset_id: str, query: str, params: dict[str, int], label: str) -> Fraction:
    ruleset = load_content(root).ruleset(ruleset_id)
    spec = family_of(ruleset).odds[query]
    results = dict(spec.compute(ruleset.data, ruleset.profile(), params))
    return results[label]


@pytest.mark.parametrize(
    ("ruleset_id", "file", "old", "new", "query", "params", "label", "before", "after"), CASES
)
def test_one_edit_changes_rulebook_and_engine(
    content_copy: Path,
    ruleset_id: str,
    file: str,
    old: str,
    new: str,
    query: str,
    params: dict[str, int],
    label: str,
    before: Fraction,
    after: Fraction,
) -> None:
    html_before = rulebook_html(load_content(content_copy).ruleset(ruleset_id))
    assert odds(content_copy, ruleset_id, query, params, label) == before
    edit(content_copy / ruleset_id / "tables" / file, old, new)
    assert odds(content_copy, ruleset_id, query, params, label) == after
    html_after = rulebook_html(load_content(content_copy).ruleset(ruleset_id))
    assert html_after != html_before
    changed = new.split("=")[1].strip()
    # Not counted: the figures, games the engine plays by the rules, which a rule changes.
    assert played_out(html_after).count(changed) > played_out(html_before).count(changed)


def played_out(html: str) -> str:
    """The rulebook's HTML without its figures (generator/products/rulebook/figures.py)."""
    return re.sub(r'<figure class="rb-figure.*?</figcaption></figure>', "", html, flags=re.S)
