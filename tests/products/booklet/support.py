"""Booklets made in the test process, the way ``towerpress booklet`` makes them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from generator.engine.booklet import BookletRequest, check_document, make_booklet
from generator.engine.family import family_of
from generator.engine.rng import normalise_seed
from generator.model.loader import Content
from tests.commands import run_here
from tests.renders import Renders


def booklet(content: Content, ruleset_id: str, seed: str = "1", profile_id: str | None = None,
            depth: int | None = None, odds_runs: int = 0) -> dict[str, Any]:
    """The booklet of ``seed`` (as typed), under the booklet profile by default."""
    ruleset = content.ruleset(ruleset_id)
    family = family_of(ruleset)
    profile = ruleset.profile(profile_id or ruleset.info.booklet_profile)
    request = BookletRequest(seed, depth or family.default_depth, odds_runs)
    return make_booklet(ruleset, family, profile, request)


def codes(content: Content, document: dict[str, Any]) -> set[str]:
    """The codes of everything ``towerpress check`` finds in ``document``."""
    ruleset = content.ruleset(document["ruleset"])
    return {f.code for f in check_document(document, ruleset, family_of(ruleset))}


def edited(document: dict[str, Any]) -> dict[str, Any]:
    """A copy to tamper with."""
    return copy.deepcopy(document)


#: Seeds a ruleset's booklets are checked over: many shallow ones (the invariants hold floor
#: by floor) and a few of the default depth.
SHALLOW_SEEDS, SHALLOW_DEPTH, DEEP_SEEDS = 500, 1, 10


def assert_seeds_pass(content: Content, ruleset_id: str, profile_id: str) -> None:
    """Every booklet of SHALLOW_SEEDS seeds, SHALLOW_DEPTH deep, and of DEEP_SEEDS seeds at
    the default depth, passes ``check`` under the profile; the JSON of the deep ones reads
    back as the dungeon it was made from."""
    ruleset = content.ruleset(ruleset_id)
    family = family_of(ruleset)
    runs = [(seed, SHALLOW_DEPTH) for seed in range(SHALLOW_SEEDS)]
    runs += [(seed, family.default_depth) for seed in range(DEEP_SEEDS)]
    for seed, depth in runs:
        document = booklet(content, ruleset_id, str(seed), profile_id, depth)
        found = check_document(document, ruleset, family)
        assert found == [], f"seed {seed}, depth {depth}: {found[:3]}"
        if depth > SHALLOW_DEPTH:
            profile = ruleset.profiles[profile_id]
            made = family.generate_booklet(ruleset.data, profile, normalise_seed(str(seed)),
                                           depth)
            assert family.read_dungeon(ruleset.data, profile, document) == made, seed


#: The printed booklets the tests read, each made once a session with ``towerpress booklet``
#: (imposed too): small dungeons, so that a render takes seconds, with odds for the cover.
PRINTED_DEPTH = {"inverted-tower": 3, "three-dice-dungeon": 1, "tower-of-choices": 3}
PRINTED_SEED = "7"


def printed(renders: Renders, ruleset_id: str) -> Path:
    """The folder holding ``RULESET-7.json``, ``.pdf`` and ``-saddle.pdf`` of the ruleset's
    printed booklet (:data:`PRINTED_DEPTH` deep), as the command writes them."""
    def make(out: Path) -> None:
        result = run_here("booklet", ruleset_id, "--seed", PRINTED_SEED,
                          "--floors", str(PRINTED_DEPTH[ruleset_id]), "--odds", "200",
                          "--impose", "saddle", "-o", str(out))
        assert result.returncode == 0, result.stderr

    return renders.many({ruleset_id: (f"booklet-{ruleset_id}", make)})[ruleset_id]


def printed_files(renders: Renders, ruleset_id: str) -> tuple[dict[str, Any], Path, Path]:
    """The printed booklet's JSON document, its PDF and its imposed PDF."""
    folder = printed(renders, ruleset_id)
    stem = folder / f"{ruleset_id}-{PRINTED_SEED}"
    document = json.loads(stem.with_suffix(".json").read_text("utf-8"))
    return document, stem.with_suffix(".pdf"), folder / f"{stem.name}-saddle.pdf"


def part_pages(reader: Any) -> dict[str, int]:
    """Each top-level bookmark of a booklet's PDF (a pypdf reader): its title and page,
    from 1."""
    parts = {}
    for item in reader.outline:
        if not isinstance(item, list):
            page = reader.get_destination_page_number(item)
            assert page is not None, item.title
            parts[str(item.title)] = page + 1
    return parts
