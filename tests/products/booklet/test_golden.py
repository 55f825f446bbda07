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
        "057ebdc70051812e80d3a3819d3f062b78b36df7f5482bb3497da29e7f93ad9c",
    ("inverted-tower", "1", "as-written"):
        "2051a1005789cfdcb2612a4503967f8da8acb299c7b223da9cd983993bee3ca1",
    ("inverted-tower", "1", "draft-4.5"):
        "7e009d08ab7d8d75eda96dc47c0e5c8d359352abf9e4f93dec8b5a01c6b2b3a0",
    ("three-dice-dungeon", "7", "balanced"):
        "7e2c0fbebe7459386d94d9b1f980b1b9dc2ac0a4cb3095f57173affad43a4f1f",
    ("three-dice-dungeon", "1", "as-written"):
        "4ee1ac5bbc34abce4e37305a885a646d89c28f9e03d83257392519179706ead0",
    ("three-dice-dungeon", "tonight", "d6-scale"):
        "de8892d6436bcac07636b09c67772c617cf1260bf53663ebe6357b809046ac43",
    ("tower-of-choices", "1", "balanced"):
        "fa017bb8ba7f884a87edce0567f62f33d7e9e381b530d008c289d41cafeb293b",
    ("tower-of-choices", "1", "as-written"):
        "e18a36d2fac42700068f5261f8d91f7ce6b99c63fe0e01c065c885135d47276c",
    ("tower-of-choices", "tonight", "gentle"):
        "fe537754afda23394ed77bf66a5275738b1aa1e166995f6dcee0659df1f0c3ba",
}


@pytest.mark.parametrize(("ruleset_id", "seed", "profile_id"), sorted(GOLDEN))
def test_a_golden_seed_gives_its_pinned_booklet(content: Content, ruleset_id: str,
                                                 seed: str, profile_id: str) -> None:
    document = booklet(content, ruleset_id, seed, profile_id)
    del document["generator"], document["content_hash"]
    digest = hashlib.sha256(to_bytes(document)).hexdigest()
    assert digest == GOLDEN[ruleset_id, seed, profile_id]
