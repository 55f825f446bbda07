"""Options and helpers shared by every command.

Imported by every command's module: what it needs of the model and the engine is imported
by the function that uses it, so that a command imports only what it runs.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from generator.engine.rng import check_seed, normalise_seed

if TYPE_CHECKING:
    from generator.engine.family import Family
    from generator.model.common import Profile
    from generator.model.loader import Content, Ruleset

F = TypeVar("F", bound=Callable[..., Any])

PAPER = click.Choice(["a4", "letter", "a5"])


def content_option(func: F) -> F:
    """``--content DIR``: load a content tree other than the bundled one."""
    option = click.option(
        "--content",
        "content_dir",
        type=click.Path(path_type=Path, file_okay=False),
        default=None,
        metavar="DIR",
        help="Content folder (a folder of rulesets, or one ruleset) instead of the bundled one.",
    )
    return option(func)


def profile_option(func: F) -> F:
    """``--profile P``: a rules profile of the ruleset, its default one when left out."""
    option = click.option("--profile", "profile_id", default=None,
                          help="Rules profile (default: the ruleset's).")
    return option(func)


def floors_option(what: str) -> Callable[[F], F]:
    """``--floors N``: how deep a game goes, ``what`` saying what N does."""
    return click.option("--floors", "depth", type=PositiveInt(MAX_DEPTH), default=None,
                        help=f"Floors (levels, rooms) {what}, 1 to {MAX_DEPTH}.")


def load(content_dir: Path | None) -> Content:
    """The content tree (the bundled one by default), validated: from the model cache
    when its files, the program and the settings are those it was cached under
    (generator/model/cache.py).

    Raises:
        ContentError: every problem found in the content (a model with problems is never
            cached).
        TowerpressError: the folder does not exist or holds no ruleset.
    """
    from generator.model.cache import load_cached
    from generator.rulesets import FAMILIES

    return load_cached(content_dir, FAMILIES)


def engine_for(ruleset_id: str, content_dir: Path | None, profile_id: str | None
               ) -> tuple[Ruleset, Profile, Family[Any]]:
    """The ruleset, the profile asked for (the ruleset's own by default) and its family."""
    from generator.engine.family import family_of

    ruleset = load(content_dir).ruleset(ruleset_id)
    return ruleset, ruleset.profile(profile_id), family_of(ruleset)


def canonical_seed(seed: str) -> str:
    """``--seed`` as the engine takes it (``int:42``, ``str:abc``).

    Raises:
        click.BadParameter: an empty or too long seed, or one that is not text.
    """
    try:
        check_seed(seed)
        return normalise_seed(seed)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--seed'") from None


SEED_HELP = "Seed (an integer or any non-empty text, at most 200 characters)."


class PositiveInt(click.ParamType):  # type: ignore[type-arg]
    """A whole number of at least 1 (and at most ``maximum``), with a message that says so."""

    name = "N"

    def __init__(self, maximum: int | None = None) -> None:
        self.maximum = maximum

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        wanted = "a positive integer" + (f" up to {self.maximum:,}" if self.maximum else "")
        try:
            number = int(value)
        except (TypeError, ValueError):
            self.fail(f"expected {wanted}, got {value!r}", param, ctx)
        if number < 1 or (str(value).strip() != str(number) and not isinstance(value, int)):
            self.fail(f"expected {wanted}, got {value!r}", param, ctx)
        if self.maximum is not None and number > self.maximum:
            self.fail(f"expected {wanted}, got {value!r}", param, ctx)
        return number


MAX_RUNS = 1_000_000  # games: at the slowest engine (about 120 games/s), two hours and more
MAX_DEPTH = 999  # floors a simulated run goes down: 0.3% of as-written runs reach floor 99
