"""Golden seeds: the booklets of a few seeds, pinned by the SHA-256 of their JSON.

A pin changes when what the booklet holds changes: the content's tables, how the engine
pre-rolls a dungeon or words its sections, or the JSON's shape. It does not change with
the generator's version or the content's prose, so ``generator`` and ``content_hash`` are
left out of the hash. When a pin fails, read the new booklet's difference (``towerpress
booklet RULESET --seed S --odds 0`` before and after, then ``diff``), make sure every
change is one you meant, and write the new hash here with the reason in the commit.
"""

from __future__ import annotations

import hashlib

import pytest

from generator.engine.booklet import to_bytes
from generator.model.loader import Content
from tests.products.booklet.support import booklet

#: (ruleset, seed as typed, profile) -> SHA-256 of the booklet's JSON, odds left out.
GOLDEN: dict[tuple[str, str, str], str] = {
    ("inverted-tower", "1234", "balanced"):
        "8b88b264c743672e8311103eb6e5b52036c6bf34e13fa7b648fde9e9a994a520",
    ("inverted-tower", "1", "as-written"):
        "39bf766e46dbf86b2dbd8129b96b5670e3fcbff5216e0b14514e8aabb372224a",
    ("inverted-tower", "1", "draft-4.5"):
        "7dbfe57464179665cca2637c648c0729a9ce31cfb91cf00cc980aafadaa6a52e",
    ("three-dice-dungeon", "7", "balanced"):
        "34ff5bf12e6c68c7969df79d2555da4bb0fcb183cee50eb09e0900e22fd36c98",
    ("three-dice-dungeon", "1", "as-written"):
        "e6da185db54a45ef20ed9d6c2fca2d152fca1a1642617614e4c631b4cd0d30b1",
    ("three-dice-dungeon", "tonight", "d6-scale"):
        "9d4da9b5ee5e836c0cc18600b92df9128c42069fb00be782601c026bcb86452c",
    ("tower-of-choices", "1", "balanced"):
        "4568381e04e5aa8e64004b9d5b808ee3a3408396977eff22e0e702ad198f2404",
    ("tower-of-choices", "1", "as-written"):
        "2d671c0219697b6af19d616f1d78af07f8a223dafba35d8ed3266b11049a6b6e",
    ("tower-of-choices", "tonight", "gentle"):
        "7f3944cfa0979235183bb4a41c1b2ceadf80debae12c951275397de5e4006644",
}


@pytest.mark.parametrize(("ruleset_id", "seed", "profile_id"), sorted(GOLDEN))
def test_a_golden_seed_gives_its_pinned_booklet(content: Content, ruleset_id: str,
                                                 seed: str, profile_id: str) -> None:
    document = booklet(content, ruleset_id, seed, profile_id)
    del document["generator"], document["content_hash"]
    digest = hashlib.sha256(to_bytes(document)).hexdigest()
    assert digest == GOLDEN[ruleset_id, seed, profile_id]
