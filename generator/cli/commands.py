"""Commands that live beside cli.py, each module registering its own on the group."""

from __future__ import annotations

import click


def register_all(group: click.Group) -> None:
    from generator.cli import cards, sheets

    cards.register(group)
    sheets.register(group)
