"""Tower of Choices as a family: what differs from the defaults, and its hooks."""

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
from generator.model.decks import Card, Deck
from generator.model.loader import Ruleset
from generator.model.sheet_sources import Sources
from generator.model.table_files import TableFiles
from generator.model.views import TableView
from generator.rulesets.tower_of_choices.data import TowerOfChoices, load
from generator.rulesets.tower_of_choices.examples import EXAMPLES
from generator.rulesets.tower_of_choices.odds import ODDS
from generator.rulesets.tower_of_choices.rules import rules_for
from generator.rulesets.tower_of_choices.simulate import booklet_odds, play, simulate
from generator.rulesets.tower_of_choices.trial import Trial, generate_catalogue_trial

# The hooks that write and read booklets, print tables and fill sheets import their modules
# when called: a command that only plays (simulate, play, odds) starts without them.


class TowerOfChoicesFamily(Family[TowerOfChoices]):
    id = "tower-of-choices"
    ruling_prefix = "TC"
    rulings = (
        "TC-02", "TC-03", "TC-04", "TC-05", "TC-06", "TC-07", "TC-08", "TC-09", "TC-10",
        "TC-11", "TC-12", "TC-14", "TC-15", "TC-16", "TC-18", "TC-20", "TC-21", "TC-25",
    )
    depth_name = "room"
    has_end = True  # reaching the top of the trial (TC-20)
    default_depth = 8
    odds = ODDS
    examples = EXAMPLES

    def load(self, files: TableFiles) -> TowerOfChoices:
        return load(files)

    def tables(self, data: TowerOfChoices, printed_for: Profile | None
               ) -> Mapping[str, TableView]:
        from generator.rulesets.tower_of_choices.views import build_tables

        return build_tables(data, printed_for)

    def deck_sources(self, data: TowerOfChoices, printed_for: Profile | None
                     ) -> dict[str, Source]:
        """The tables, and ``challenge``: the CHALLENGE card's own rules."""
        from generator.rulesets.tower_of_choices.sources import challenge

        found = super().deck_sources(data, printed_for)
        found["challenge"] = challenge(data, self.tables(data, printed_for))
        return found

    def sheet_sources(self, data: TowerOfChoices) -> Sources:
        from generator.rulesets.tower_of_choices.sources import sheet_sources

        return sheet_sources(data)

    def simulate(self, data: TowerOfChoices, profile: Profile, runs: int, seed: str,
                 depth: int, progress: Progress | None) -> Iterable[RunOutcome]:
        return simulate(data, profile, runs, seed, depth, progress)

    def play(self, data: TowerOfChoices, profile: Profile, seed: str, depth: int
             ) -> PlayedGame:
        return play(data, profile, seed, depth)

    def starting_deck(self, ruleset: Ruleset, skills: str, ability: str | None,
                      challenges: int, profile: Profile) -> tuple[Deck, list[Card]]:
        from generator.rulesets.tower_of_choices.starting_deck import starting_deck

        return starting_deck(ruleset, skills, ability, challenges, profile)

    def ready_cards(self, ruleset: Ruleset, deck: Deck, profile: Profile) -> tuple[Card, ...]:
        from generator.rulesets.tower_of_choices.starting_deck import ready_cards

        return ready_cards(ruleset, deck, profile)

    def generate_booklet(self, data: TowerOfChoices, profile: Profile, seed: str,
                         depth: int) -> Trial:
        """A trial of ``depth`` rooms from the obstacle catalogue (tables/catalogue.toml),
        with the pre-made characters of its character page."""
        from generator.rulesets.tower_of_choices.premade import with_characters

        rules = rules_for(data, profile)
        return with_characters(rules, generate_catalogue_trial(rules, seed, depth))

    def check_booklet(self, data: TowerOfChoices, profile: Profile, dungeon: Trial
                      ) -> list[Finding]:
        from generator.rulesets.tower_of_choices.check import check_trial

        return check_trial(rules_for(data, profile), dungeon)

    def gamebook(self, data: TowerOfChoices, profile: Profile, dungeon: Trial, seed: str,
                 renumbered: Sequence[int] = ()) -> Gamebook:
        from generator.rulesets.tower_of_choices.gamebook import gamebook

        return gamebook(rules_for(data, profile), dungeon, seed, renumbered)

    def read_dungeon(self, data: TowerOfChoices, profile: Profile,
                     document: Mapping[str, Any]) -> Trial:
        from generator.rulesets.tower_of_choices.document import read_dungeon

        return read_dungeon(rules_for(data, profile), document)

    def booklet_odds(self, data: TowerOfChoices, profile: Profile, dungeon: Trial, runs: range,
                     seed: str) -> Iterable[RunOutcome]:
        return booklet_odds(data, profile, dungeon, runs, seed)


FAMILY = TowerOfChoicesFamily()
