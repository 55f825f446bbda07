"""The Inverted Tower as a family: what differs from the defaults, and its hooks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from generator.engine.family import Family, Progress
from generator.engine.gamebook import Gamebook
from generator.engine.playlog import PlayedGame
from generator.engine.report import RunOutcome
from generator.findings import Finding
from generator.model.common import Profile
from generator.model.sheet_sources import Sources
from generator.model.table_files import TableFiles
from generator.model.views import TableView
from generator.rulesets.inverted_tower.booklet import FloorContent, generate_floors
from generator.rulesets.inverted_tower.data import InvertedTower, load
from generator.rulesets.inverted_tower.examples import EXAMPLES
from generator.rulesets.inverted_tower.odds import QUERIES
from generator.rulesets.inverted_tower.read import PREFIX
from generator.rulesets.inverted_tower.rules import rules_for
from generator.rulesets.inverted_tower.simulate import booklet_odds, play_first, simulate

# The hooks that write and read booklets, print tables and fill sheets import their modules
# when called: a command that only plays (simulate, play, odds) starts without them.


class InvertedTowerFamily(Family[InvertedTower]):
    id = "inverted-tower"
    ruling_prefix = PREFIX
    # The rulings the views read by ID (the engine reads the others through the data's
    # Varies values, which name their own ruling).
    rulings = ("IT-10", "IT-11", "IT-22", "IT-32")
    depth_name = "floor"
    # IT-27: the tower itself is endless (Faithful); a run of N floors is won by descending
    # from floor N, as a booklet of N pre-rolled floors is.
    has_end = True
    default_depth = 10
    odds = QUERIES
    examples = EXAMPLES

    def load(self, files: TableFiles) -> InvertedTower:
        return load(files)

    def tables(self, data: InvertedTower, printed_for: Profile | None
               ) -> Mapping[str, TableView]:
        from generator.rulesets.inverted_tower.views import build_tables

        return build_tables(data, printed_for)

    def sheet_sources(self, data: InvertedTower) -> Sources:
        from generator.rulesets.inverted_tower.sources import sheet_sources

        return sheet_sources(data)

    def simulate(self, data: InvertedTower, profile: Profile, runs: int, seed: str,
                 depth: int, progress: Progress | None) -> Iterable[RunOutcome]:
        return simulate(data, profile, runs, seed, depth, progress)

    def play(self, data: InvertedTower, profile: Profile, seed: str, depth: int
             ) -> PlayedGame:
        return play_first(data, profile, seed, depth)

    def generate_booklet(self, data: InvertedTower, profile: Profile, seed: str,
                         depth: int) -> tuple[FloorContent, ...]:
        return generate_floors(rules_for(data, profile), seed, depth)

    def check_booklet(self, data: InvertedTower, profile: Profile,
                      dungeon: tuple[FloorContent, ...]) -> list[Finding]:
        from generator.rulesets.inverted_tower.check import check_floor

        rules = rules_for(data, profile)
        return [finding for floor in dungeon for finding in check_floor(rules, floor)]

    def gamebook(self, data: InvertedTower, profile: Profile,
                 dungeon: tuple[FloorContent, ...], seed: str,
                 renumbered: Sequence[int] = ()) -> Gamebook:
        from generator.rulesets.inverted_tower.gamebook import build_gamebook

        return build_gamebook(rules_for(data, profile), dungeon, seed, renumbered)

    def read_dungeon(self, data: InvertedTower, profile: Profile,
                     document: Mapping[str, Any]) -> tuple[FloorContent, ...]:
        from generator.rulesets.inverted_tower.document import read_dungeon

        return read_dungeon(rules_for(data, profile), document)

    def booklet_odds(self, data: InvertedTower, profile: Profile,
                     dungeon: tuple[FloorContent, ...], runs: range, seed: str
                     ) -> Iterable[RunOutcome]:
        return booklet_odds(rules_for(data, profile), dungeon, runs, seed)


FAMILY = InvertedTowerFamily()
