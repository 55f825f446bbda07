"""3 Dice Dungeon (modified) as a family: what differs from the defaults, and its hooks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from generator.engine.family import Family, Progress
from generator.engine.gamebook import Gamebook
from generator.engine.playlog import PlayedGame
from generator.engine.report import RunOutcome
from generator.findings import Finding
from generator.model.common import Profile
from generator.model.deck_sources import Source
from generator.model.sheet_sources import Sources
from generator.model.table_files import TableFiles
from generator.model.views import TableView
from generator.rulesets.three_dice_dungeon.data import ThreeDiceDungeon, load
from generator.rulesets.three_dice_dungeon.dungeon import Dungeon, generate_dungeon
from generator.rulesets.three_dice_dungeon.examples import EXAMPLES
from generator.rulesets.three_dice_dungeon.queries import ODDS
from generator.rulesets.three_dice_dungeon.rules import rules_for
from generator.rulesets.three_dice_dungeon.simulate import booklet_odds, played, simulate

# The hooks that write and read booklets, print tables and fill sheets import their modules
# when called: a command that only plays (simulate, play, odds) starts without them.


class ThreeDiceDungeonFamily(Family[ThreeDiceDungeon]):
    id = "three-dice-dungeon"
    ruling_prefix = "DD"
    rulings = (
        "DD-01", "DD-02", "DD-04", "DD-05", "DD-06", "DD-08", "DD-09", "DD-10", "DD-11",
        "DD-12", "DD-13", "DD-19", "DD-20", "DD-21", "DD-22", "DD-23", "DD-25",
        "DD-27", "DD-28", "DD-31", "DD-34",
    )
    depth_name = "level"
    has_end = True  # going down from the last level of the run wins
    default_depth = 3
    odds = ODDS
    examples = EXAMPLES

    def load(self, files: TableFiles) -> ThreeDiceDungeon:
        return load(files)

    def tables(self, data: ThreeDiceDungeon, printed_for: Profile | None
               ) -> Mapping[str, TableView]:
        from generator.rulesets.three_dice_dungeon.views import build_tables

        return build_tables(data, printed_for)

    def deck_sources(self, data: ThreeDiceDungeon, printed_for: Profile | None
                     ) -> dict[str, Source]:
        """The tables, and ``monsters``: the manual with the undead (DD-09, DD-28)."""
        from generator.rulesets.three_dice_dungeon.sources import monsters

        found = super().deck_sources(data, printed_for)
        found["monsters"] = monsters(data, self.tables(data, printed_for))
        return found

    def sheet_sources(self, data: ThreeDiceDungeon) -> Sources:
        from generator.rulesets.three_dice_dungeon.sources import sheet_sources

        return sheet_sources(data)

    def simulate(self, data: ThreeDiceDungeon, profile: Profile, runs: int, seed: str,
                 depth: int, progress: Progress | None) -> Iterable[RunOutcome]:
        return simulate(data, profile, runs, seed, depth, progress)

    def play(self, data: ThreeDiceDungeon, profile: Profile, seed: str, depth: int
             ) -> PlayedGame:
        return played(data, profile, seed, depth)

    def generate_booklet(self, data: ThreeDiceDungeon, profile: Profile, seed: str,
                         depth: int) -> Dungeon:
        return generate_dungeon(rules_for(data, profile), seed, depth)

    def check_booklet(self, data: ThreeDiceDungeon, profile: Profile, dungeon: Dungeon
                      ) -> list[Finding]:
        from generator.rulesets.three_dice_dungeon.check import check_dungeon

        return check_dungeon(rules_for(data, profile), dungeon)

    def gamebook(self, data: ThreeDiceDungeon, profile: Profile, dungeon: Dungeon, seed: str,
                 renumbered: Sequence[int] = ()) -> Gamebook:
        from generator.rulesets.three_dice_dungeon.gamebook import gamebook

        return gamebook(rules_for(data, profile), dungeon, seed, renumbered)

    def read_dungeon(self, data: ThreeDiceDungeon, profile: Profile,
                     document: Mapping[str, Any]) -> Dungeon:
        from generator.rulesets.three_dice_dungeon.document import read_dungeon

        return read_dungeon(rules_for(data, profile), document)

    def booklet_odds(self, data: ThreeDiceDungeon, profile: Profile, dungeon: Dungeon,
                     runs: range, seed: str) -> Iterable[RunOutcome]:
        return booklet_odds(data, profile, dungeon, runs, seed)


FAMILY = ThreeDiceDungeonFamily()
