"""The products' forms: the options of each product's command, read off the command itself
(its choices, defaults and help), and a request's values turned back into that command's
arguments, so that the page and the command line check them with the same code and say
the same one line when one is wrong."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

import click

from generator.cli.booklet import booklet
from generator.cli.cards import cards
from generator.cli.main import usage_line
from generator.cli.options import canonical_seed
from generator.cli.rulebook import rulebook
from generator.cli.sheets import log, sheet
from generator.engine.family import family_of
from generator.errors import TowerpressError
from generator.model.loader import Content, Ruleset

Kind = Literal["select", "checkbox", "text", "number"]


@dataclass(frozen=True)
class Field:
    """One option of a product's form: its parameter's name (the request's key), label,
    control, value (the request's, else the command's default), choices and help."""

    name: str
    label: str
    kind: Kind
    value: str
    choices: tuple[tuple[str, str], ...]
    help: str
    default: str
    more: bool = False  # one of the form's "More options"
    placeholder: str = ""  # what the command takes when it is left empty

    @property
    def changed(self) -> bool:
        return self.value != self.default


@dataclass(frozen=True)
class Form:
    """A product's page: the command that makes it, the options the page shows (parameter
    names, in order), and what it is called."""

    product: str
    title: str
    command: click.Command
    names: tuple[str, ...]
    lead: str
    more: tuple[str, ...] = ()  # the options few change, folded away under "More options"

    def param(self, name: str) -> click.Parameter:
        return next(p for p in self.command.params if p.name == name)


FORMS: Mapping[str, Form] = {form.product: form for form in (
    Form("booklet", "Solo booklet", booklet,
         ("seed", "depth", "profile_id", "paper", "impose", "odds_runs"),
         "A dungeon rolled in advance from a seed: numbered sections, tapes instead of dice, "
         "and its odds. Print it, fold it, play it tonight with a pencil.",
         ("odds_runs",)),
    Form("rulebook", "Rulebook", rulebook, ("paper", "profile_id", "print_marks"),
         "The whole ruleset: cover, contents, chapters, tables, rulings and a quick "
         "reference."),
    Form("cards", "Card decks", cards,
         ("deck_id", "size_text", "paper", "duplex", "bleed", "gutter", "offset_text",
          "fold", "split", "profile_id", "build_skills", "ability", "challenges"),
         "The decks with crop marks, and backs that line up when printed on both sides.",
         ("gutter", "offset_text", "fold", "split", "profile_id", "build_skills", "ability",
          "challenges")),
    Form("sheet", "Character sheet", sheet, ("paper",),
         "A character sheet, with form fields to fill on screen."),
    Form("log", "Log", log, ("paper", "floors"),
         "The play log (Dungeon Log, map sheet, trial log), with form fields."),
)}

# What a choice is called on the page, where its value is a short word.
CHOICE_WORDS = {"a4": "A4", "a5": "A5", "letter": "US Letter", "long": "long edge",
                "short": "short edge", "none": "no backs"}
# The labels that a parameter's name does not make well by itself.
LABELS = {"depth": "Floors", "profile_id": "Rules profile", "deck_id": "Deck",
          "size_text": "Card size", "offset_text": "Back offset (X,Y mm)",
          "odds_runs": "Plays for the odds", "impose": "Print imposed for folding",
          "split": "Split long tables", "build_skills": "Starting deck (3 skills)",
          "print_marks": "Bleed and crop marks"}


def fields(form: Form, ruleset: Ruleset, values: Mapping[str, str]) -> list[Field]:
    """The form's options for ``ruleset``, holding ``values`` where the request gave one."""
    return [replace(_field(form.param(name), ruleset, values.get(name)),
                    more=name in form.more, placeholder=_placeholder(form, name, ruleset))
            for name in form.names]


def _placeholder(form: Form, name: str, ruleset: Ruleset) -> str:
    """What an option left empty means, where the command decides it from the ruleset."""
    if name == "depth":
        family = family_of(ruleset)
        return f"{family.default_depth} (the ruleset's own)"
    if name == "profile_id":
        own = ruleset.info.booklet_profile if form.product == "booklet" else \
            ruleset.info.default_profile
        return ruleset.profile(own).title
    return ""


def _field(param: click.Parameter, ruleset: Ruleset, given: str | None) -> Field:
    assert param.name is not None
    # The help as the command line prints it, less its Markdown-like quotes.
    name, help_text = param.name, (getattr(param, "help", None) or "").replace("`", "")
    label = LABELS.get(name, name.replace("_", " ").capitalize())
    choices = _choices(param, ruleset)
    default = _default(param)
    value = default if given is None else given
    if choices:
        return Field(name, label, "select", value, choices, help_text, default)
    if getattr(param, "is_flag", False) or name == "impose":
        return Field(name, label, "checkbox", value, (), help_text, default)
    kind: Kind = "number" if isinstance(param.type, click.IntRange | click.types.FloatParamType
                                        ) else "text"
    return Field(name, label, kind, value, (), help_text, default)


def _choices(param: click.Parameter, ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    if param.name == "profile_id":
        return (("", "the default"),
                *((p.id, f"{p.title} ({p.id})") for p in ruleset.profiles.values()))
    if param.name == "deck_id":
        return (("", "every deck"), *((d.id, d.title) for d in ruleset.decks.values()))
    if isinstance(param.type, click.Choice) and param.name != "impose":
        return tuple((str(c), CHOICE_WORDS.get(str(c), str(c))) for c in param.type.choices)
    if param.metavar and "|" in param.metavar:  # choices the command checks itself (a4|a5)
        return tuple((c, CHOICE_WORDS.get(c, c)) for c in param.metavar.split("|"))
    return ()


def _default(param: click.Parameter) -> str:
    default = param.get_default(click.Context(click.Command("towerpress")))
    if default is None or default is False:
        return ""
    return "on" if default is True else str(default)


def arguments(form: Form, ruleset_id: str, values: Mapping[str, str]) -> list[str]:
    """The command's arguments for ``values`` (a request's, by parameter name): what a
    person would type after ``towerpress PRODUCT``.  Empty values and unknown names are
    left out, so the command's own defaults hold."""
    argv = [ruleset_id]
    for name in form.names:
        value = values.get(name, "").strip()
        param = form.param(name)
        flag = max(param.opts, key=len)
        if getattr(param, "is_flag", False):
            argv += [flag] if value else []
        elif name == "impose":
            argv += [flag, "saddle"] if value else []
        elif value:
            argv += [flag, value]
    return argv


class FormError(Exception):
    """A request's options refused, with the command line's own line for it."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


def check(form: Form, content: Content, argv: Sequence[str]) -> None:
    """Parse ``argv`` as the command line parses it (the command's types and choices), and
    the ruleset against the content.

    Raises:
        FormError: what the command line would print, in its words.
    """
    try:
        content.ruleset(argv[0])
        context = form.command.make_context(f"towerpress {form.product}", list(argv))
        _check_seed(context)
    except click.UsageError as exc:
        raise FormError(usage_line(exc)) from None
    except TowerpressError as exc:
        raise FormError(exc.line()) from None


def _check_seed(context: click.Context) -> None:
    """A seed is checked by the command itself, not its type: here too, before a render is
    queued, in the command's words."""
    seed = context.params.get("seed")
    if seed is None:
        return
    try:
        canonical_seed(seed)
    except click.BadParameter as exc:
        exc.ctx = context
        raise
