"""The rulings each family's code reads by ID are those its Family lists (loader checks a
ruleset defines each), so a user's ruleset without one gets a finding, not a KeyError."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from generator.rulesets import FAMILIES

# A ruling read by ID: profile.alt("TC-07"), alt("DD-10"), reading(printed, "DD-10", ...),
# and the views' chosen_reading(printed, "DD-10").
READ = re.compile(r"\b(?:alt|reading|chosen_reading)\((?:\s*\w+\s*,)?\s*\"([A-Z]{2,4}-\d{2,3})\"")


def test_every_ruling_the_code_reads_is_listed_by_its_family() -> None:
    for family in FAMILIES.values():
        package = Path(sys.modules[type(family).__module__].__file__ or "").parent
        read = {m.group(1) for path in package.rglob("*.py")
                for m in READ.finditer(path.read_text(encoding="utf-8"))}
        assert read, f"the pattern no longer finds {family.id}'s readings"
        assert read == set(family.rulings), family.id
