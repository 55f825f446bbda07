"""The internals of click that generator/cli/click_internals.py relies on are still there."""

from __future__ import annotations

import warnings

import click

from generator.cli.click_internals import set_protected_args
from tests.pins import assert_pinned


def test_click_is_the_version_the_adapter_was_read_on() -> None:
    assert_pinned("click", "generator/cli/click_internals.py")


def _group(ran: list[str]) -> click.Group:
    @click.group(invoke_without_command=True)
    def group() -> None:
        ran.append("group")

    @group.command()
    def sub() -> None:
        ran.append("sub")

    return group


def test_a_context_takes_the_protected_args_without_a_warning() -> None:
    ctx = click.Context(_group([]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not the deprecated ``protected_args``
        set_protected_args(ctx, ["sub"])
    assert ctx._protected_args == ["sub"]


def test_the_group_invokes_the_protected_args() -> None:
    """``Group.invoke`` runs the subcommand they name, and the group alone when empty."""
    for args, last in ((["sub"], "sub"), ([], "group")):
        ran: list[str] = []
        group = _group(ran)
        ctx = click.Context(group)
        set_protected_args(ctx, args)
        with ctx:
            group.invoke(ctx)
        assert ran[-1] == last
