"""Commands of this product: none yet."""

from __future__ import annotations

import click


def register(group: click.Group) -> None:
    """Add this module's commands to the towerpress group."""
