"""What a family of rulesets gives the content model: its tables' schema, its printed
tables, and what its cards and sheets may name.

A family is a class, in the manner of python-chess's variants: it sets a few class
attributes and overrides only the hooks where it needs more than the default.  The
engine's half of a family (simulation, odds, booklets) is
:class:`generator.engine.family.Family`, a subclass; every ruleset package defines one
(``generator/rulesets/<ruleset>/family.py``) and ``generator.rulesets.FAMILIES`` lists
them.  Shared modules are handed a family; they never import a ruleset.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar, Generic, TypeVar

from generator.model.common import Profile
from generator.model.deck_sources import Source, table_sources
from generator.model.sheet_sources import Sources
from generator.model.table_files import TableFiles
from generator.model.views import TableView

D = TypeVar("D")


class ContentFamily(ABC, Generic[D]):
    """A kind of ruleset as the content model sees it; ``D`` is its typed data."""

    #: The id that ``ruleset.toml``'s ``family`` names.
    id: ClassVar[str]
    #: The prefix of its ruling IDs: ``IT`` for ``IT-07``.
    ruling_prefix: ClassVar[str]
    #: The rulings its engine and views read by ID; a ruleset of the family defines each.
    rulings: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def load(self, files: TableFiles) -> D:
        """Read and check every tables file; each problem is a finding of ``files``."""

    @abstractmethod
    def tables(self, data: D, printed_for: Profile | None) -> Mapping[str, TableView]:
        """Every printable table, by the name prose embeds it with.

        ``printed_for`` is None for a rulebook, whose notes give both readings of a
        ruling; a profile for a card deck, which prints that profile's readings only.
        """

    def deck_sources(self, data: D, printed_for: Profile | None) -> dict[str, Source]:
        """What a deck's ``source`` may name: every table, one entity per row."""
        return table_sources(self.tables(data, printed_for))

    def sheet_sources(self, data: D) -> Sources:
        """What a sheet file's ``source`` keys may name: none unless the family says."""
        return Sources()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id!r}>"


#: The families a content tree is loaded with, by id.
Families = Mapping[str, ContentFamily[Any]]
