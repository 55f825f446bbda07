"""``towerpress check`` passes every booklet of many seeds, under every profile."""

from __future__ import annotations

import pytest

from generator.model.loader import Content
from generator.rulesets import load_content
from tests.products.booklet.support import assert_seeds_pass

RULESET = "tower-of-choices"


@pytest.mark.parametrize("profile_id", sorted(load_content().ruleset(RULESET).profiles))
def test_every_booklet_of_many_seeds_passes(content: Content, profile_id: str) -> None:
    assert_seeds_pass(content, RULESET, profile_id)
