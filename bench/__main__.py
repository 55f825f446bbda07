"""Run every benchmark, or those named: ``python -m bench [rulebook ...]``."""

from __future__ import annotations

import importlib
import sys

BENCHMARKS = (
    "rulebook",
    "inverted_tower_engine",
    "three_dice_dungeon_engine",
    "tower_of_choices_engine",
    "cards",
    "booklet",
    "booklet_print",
    "log_pages",
    "startup",
    "serve",
)


def main(argv: list[str]) -> None:
    names = argv or list(BENCHMARKS)
    for name in names:
        if name not in BENCHMARKS:
            sys.exit(f"unknown benchmark {name!r} (expected one of: {', '.join(BENCHMARKS)})")
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        module.run()


main(sys.argv[1:])
