"""Every use of click's internals, in one place.

Read on click 8.5.1 (constraints.txt); tests/test_click_internals.py fails as soon as
another version is installed.  Raise the pin on purpose, after reading this again in the
new version:

- ``Context._protected_args``: the subcommand and its arguments, which ``Group.invoke``
  runs when the list is not empty (click 8.2 renamed it from ``protected_args``, which is
  now a deprecated read-only property).  ``towerpress cards`` parses its own arguments
  (cli/cards.py) and sets it: if it is renamed again, ``cards calibrate`` runs the group
  itself, and ``cards RULESET`` may run a subcommand.
"""

from __future__ import annotations

import click


def set_protected_args(ctx: click.Context, args: list[str]) -> None:
    """Set the subcommand (and its arguments) that ``ctx``'s group will invoke."""
    # Before click 8.2 (which pyproject.toml still allows) the attribute had no underscore.
    name = "_protected_args" if hasattr(ctx, "_protected_args") else "protected_args"
    setattr(ctx, name, args)
