"""The rulings each family's code reads by ID are those its Family lists (loader checks a
ruleset defines each), so a user's ruleset without one gets a finding, not a KeyError."""

from __future__ import annotations

import re
from pathlib import Path

from generator.model.loader import families

PACKAGE = Path(__file__).resolve().parents[2] / "generator"
# A ruling read by ID: profile.alt("TC-07"), alt("DD-10"), reading("TC-12", ...), and the
# views' chosen_reading / both_readings.
READ = re.compile(r"\b(?:alt|reading|chosen_reading|both_readings)\(\s*\"([A-Z]{2,4}-\d{2,3})\"")


def test_every_ruling_the_code_reads_is_listed_by_its_family() -> None:
    read = {m.group(1) for path in PACKAGE.rglob("*.py")
            for m in READ.finditer(path.read_text(encoding="utf-8"))}
    assert read, "the pattern no longer finds the code's readings"
    for family in families().values():
        own = {r for r in read if r.startswith(family.ruling_prefix + "-")}
        assert own == set(family.rulings), family.id

