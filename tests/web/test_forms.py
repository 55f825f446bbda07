"""The products' forms are their commands' options: the same names, defaults and choices,
and a form's values parse as the command line parses them."""

from __future__ import annotations

import click
import pytest

from generator.model.loader import Content
from generator.web.forms import FORMS, FormError, arguments, check, fields
from tests.commands import run_here


@pytest.mark.parametrize("product", sorted(FORMS))
def test_a_form_shows_its_commands_options_with_their_defaults(content: Content,
                                                              product: str) -> None:
    form = FORMS[product]
    for ruleset in content.rulesets.values():
        shown = fields(form, ruleset, {})
        assert [f.name for f in shown] == list(form.names)
        for field in shown:
            param = form.param(field.name)
            default = param.get_default(click.Context(form.command))
            given = default is not None and default is not False
            assert field.value == ("on" if default is True else str(default) if given
                                   else ""), field
            if isinstance(param.type, click.Choice) and field.kind == "select":
                assert [v for v, _ in field.choices] == list(param.type.choices)


@pytest.mark.parametrize("product", sorted(FORMS))
def test_a_forms_defaults_parse_as_the_command_lines_own(content: Content,
                                                        product: str) -> None:
    form = FORMS[product]
    ruleset = next(iter(content.rulesets.values()))
    values = {f.name: f.value for f in fields(form, ruleset, {"seed": "7"})}
    argv = arguments(form, ruleset.id, values)
    check(form, content, argv)
    plain = ["--seed", "7"] if product == "booklet" else []
    typed = form.command.make_context(product, [ruleset.id, *plain]).params
    assert form.command.make_context(product, argv).params == typed


def test_a_profile_and_a_depth_left_empty_say_what_the_command_takes(content: Content
                                                                     ) -> None:
    ruleset = content.ruleset("three-dice-dungeon")
    shown = {f.name: f for f in fields(FORMS["booklet"], ruleset, {})}
    assert shown["depth"].placeholder.startswith("3 ")
    booklet_profile = ruleset.profile(ruleset.info.booklet_profile)
    assert shown["profile_id"].placeholder == booklet_profile.title


def test_a_value_the_commands_type_refuses_is_the_command_lines_line(content: Content
                                                                     ) -> None:
    argv = ["inverted-tower", "--paper", "a4", "--nope"]
    with pytest.raises(FormError) as refused:
        check(FORMS["log"], content, argv)
    assert refused.value.line + "\n" == run_here("log", *argv).stderr
