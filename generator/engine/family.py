"""The engine's half of a family: simulation, exact odds and pre-rolled booklets.

A ruleset package subclasses :class:`Family` (``generator/rulesets/<ruleset>/family.py``),
setting what differs as class attributes and overriding the hooks, as python-chess's
variants do; ``generator.rulesets.FAMILIES`` lists one instance of each.  The CLI and the
products are handed a family (:func:`family_of`); nothing here does I/O.
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any, ClassVar, TypeVar

from generator.engine.examples import ExampleMaker
from generator.engine.gamebook import Gamebook
from generator.engine.playlog import PlayedGame
from generator.engine.report import RunOutcome
from generator.errors import TowerpressError
from generator.findings import Finding
from generator.model.common import Profile
from generator.model.decks import Card, Deck
from generator.model.family import ContentFamily
from generator.model.loader import Ruleset

D = TypeVar("D")

Progress = Callable[[int], None]  # called with the number of runs finished so far


@dataclass(frozen=True)
class Param:
    """One integer parameter of an odds query: ``name=value`` on the command line."""

    name: str
    help: str
    default: int
    min: int
    max: int


@dataclass(frozen=True)
class OddsQuery:
    """An exact probability the engine can compute: ``towerpress odds RULESET NAME k=v ...``.

    ``compute`` returns labelled exact results; any float is only for display.
    """

    name: str
    help: str
    params: tuple[Param, ...]
    compute: Callable[[Any, Profile, Mapping[str, int]], list[tuple[str, Fraction]]]
    #: A parameter left out takes at least the value of another: {"max_hp": "hp"}.
    follow: Mapping[str, str] = field(default_factory=dict)


class Family(ContentFamily[D]):
    """A kind of ruleset with its engine; ``D`` is its typed data."""

    #: What a survival row counts: "floor", "level" or "room".
    depth_name: ClassVar[str]
    #: Whether a run can be won (a booklet's last floor, a trial's top).
    has_end: ClassVar[bool]
    #: Floors (levels, rooms) a simulated run goes down by default.
    default_depth: ClassVar[int]
    #: The exact-odds queries of ``towerpress odds``, by name.
    odds: ClassVar[Mapping[str, OddsQuery]]
    #: The worked examples a rulebook draws as figures (its ``examples`` module's), by the
    #: name a chapter's ``{{ figure: NAME seed=N }}`` gives.
    examples: ClassVar[Mapping[str, ExampleMaker]]
    @abstractmethod
    def simulate(self, data: D, profile: Profile, runs: int, seed: str, depth: int,
                 progress: Progress | None) -> Iterable[RunOutcome]:
        """``runs`` games by the reference player; ``seed`` is canonical
        (:func:`generator.engine.rng.normalise_seed`)."""

    def starting_deck(self, ruleset: Ruleset, skills: str, ability: str | None,
                      challenges: int, profile: Profile) -> tuple[Deck, list[Card]]:
        """One new character's cards (``towerpress cards --build``), with ``challenges``
        challenge cards, and the deck whose back they take.

        Raises:
            TowerpressError: the family has no starting decks (the default), or the build
                is not a legal character's.
        """
        raise TowerpressError(f"{ruleset.id} has no starting decks to build (--build)")

    def ready_cards(self, ruleset: Ruleset, deck: Deck, profile: Profile) -> tuple[Card, ...]:
        """The cards of ``deck`` as a ready-to-play print holds them (``towerpress cards``
        without ``--build``): by default, as its deck file lists them."""
        return ruleset.cards(deck, profile)

    @abstractmethod
    def play(self, data: D, profile: Profile, seed: str, depth: int) -> PlayedGame:
        """One game by the reference player, every die and decision a step of it: the
        game that ``simulate`` plays first for ``seed`` (the same outcome)."""

    # -- the booklet (design.md section 6) --------------------------------------------------

    @abstractmethod
    def generate_booklet(self, data: D, profile: Profile, seed: str, depth: int) -> Any:
        """The pre-rolled dungeon of ``seed``, ``depth`` floors (levels, rooms) deep: a
        pure function of its arguments."""

    @abstractmethod
    def check_booklet(self, data: D, profile: Profile, dungeon: Any) -> list[Finding]:
        """Every invariant of rulings.md 1.5, 2.5 or 3.5 that ``dungeon`` breaks (none:
        it is sound), each recomputed from its raw dice."""

    @abstractmethod
    def gamebook(self, data: D, profile: Profile, dungeon: Any, seed: str,
                 renumbered: Sequence[int] = ()) -> Gamebook:
        """``dungeon`` written as a gamebook: numbered sections, tapes, and the dungeon as
        the booklet's JSON holds it (its schema: ``booklet_schema``); its numbers are
        the seed's, or ``renumbered`` (:func:`generator.engine.gamebook.numbering`)."""

    @abstractmethod
    def read_dungeon(self, data: D, profile: Profile, document: Mapping[str, Any]) -> Any:
        """The dungeon of a booklet's JSON document (valid against the schemas), as
        ``gamebook`` wrote it, for ``check_booklet`` to prove from its raw dice.

        Raises:
            TowerpressError: the document names what the data has not (a monster, an
                obstacle), in one line that says where.
        """

    @abstractmethod
    def booklet_odds(self, data: D, profile: Profile, dungeon: Any, runs: range, seed: str
                     ) -> Iterable[RunOutcome]:
        """The plays numbered ``runs`` of ``dungeon`` by the reference player, in order,
        with fresh dice each time, not the tapes: play ``n`` takes its dice from the
        stream of (seed, ruleset, n, "odds"), so the plays can be shared out among
        processes and still give the same outcomes."""

    def booklet_schema(self) -> Mapping[str, Any]:
        """The JSON Schema of the family's part of a booklet (its dungeon keys), which
        every booklet is checked against beside the shared one: ``booklet.schema.json``
        in the family's package."""
        package = type(self).__module__.rpartition(".")[0]
        text = resources.files(package).joinpath("booklet.schema.json").read_text("utf-8")
        schema: dict[str, Any] = json.loads(text)
        return schema


def family_of(ruleset: Ruleset) -> Family[Any]:
    """The family of ``ruleset`` with its engine.

    Raises:
        TypeError: the ruleset was loaded with a family that has no engine (a programming
            error: ``generator.rulesets.FAMILIES`` holds engine families only).
    """
    family = ruleset.family
    if not isinstance(family, Family):
        raise TypeError(f"{ruleset.id}: family {family.id!r} has no engine")
    return family
