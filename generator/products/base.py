"""What every product is: a class with typed options that plans its files and writes one.

A product (the rulebook, the card decks, the sheets and logs) is one module
``generator/products/<product>/product.py`` defining a :class:`Product` subclass and its
options dataclass; ``towerpress build`` (:mod:`generator.pipeline`) plans every product's
jobs and writes them, and each command of the CLI writes one with the options it parsed.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Generic, TypeVar

from generator.model.loader import Content, Ruleset

Options = TypeVar("Options")


@dataclass(frozen=True)
class Job(Generic[Options]):
    """One file ``towerpress build`` writes: which product, for which ruleset, how."""

    product: str
    ruleset: str
    out: Path
    options: Options  # a frozen dataclass: its repr is part of the job's input hash


class Product(ABC, Generic[Options]):
    """A kind of printed thing; ``O`` is its options dataclass."""

    #: The product's name in a build plan.
    name: ClassVar[str]

    @abstractmethod
    def plan(self, content: Content, out_dir: Path) -> list[Job[Options]]:
        """The files of this product that ``towerpress build`` writes into ``out_dir``."""

    @abstractmethod
    def write(self, ruleset: Ruleset, options: Options, out: Path) -> str:
        """Write one file to ``out`` (atomically); returns the line that reports it."""

    def job(self, ruleset: str, out: Path, options: Options) -> Job[Options]:
        return Job(self.name, ruleset, out, options)
