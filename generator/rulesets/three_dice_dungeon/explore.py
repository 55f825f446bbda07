"""What the player knows of a level, and the cheapest ways across it.

:class:`LevelState` is the play state of one level (squares visited, monsters beaten or
asleep, vaults used, artifacts found there).  :func:`cheapest_paths` is a Dijkstra search
over the explored map whose cost is the number of roaming checks a path calls for
(DD-22: one per entry into a visited location; Alt: only at the end of a move), then its
length; temple teleports (from a cleared temple to any other mapped temple, one check on
arrival) and a Scroll of Teleportation are edges too.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from generator.engine.rng import DiceRng
from generator.rulesets.three_dice_dungeon.levels import (
    Level,
    Pos,
)
from generator.rulesets.three_dice_dungeon.rules import Rules

#: Extra cost the planner puts on walking into a location whose monster is still alive
#: (fled from or asleep): a policy weight, not a rule.
LIVE_MONSTER_PENALTY = 100
#: Extra cost of spending the single Scroll of Teleportation: only worth it when it
#: saves at least this many roaming checks (policy weight).
SCROLL_PENALTY = 1


@dataclass
class LevelState:
    """The play state of one level (mutable)."""

    level: Level
    combat: DiceRng
    wandering: DiceRng
    visited: set[Pos] = field(default_factory=set)
    defeated: set[Pos] = field(default_factory=set)  # monster beaten
    asleep: set[Pos] = field(default_factory=set)  # Sleeping Salts; awake on the next visit
    no_xp: set[Pos] = field(default_factory=set)  # DD-30: XP forfeited (slept)
    vaults_used: set[Pos] = field(default_factory=set)
    artifacts: int = 0  # found on this level (DD-31)
    flights: int = 0  # Boots flights on this level (DD-26)

    def live(self, pos: Pos) -> bool:
        """A visited location whose monster is still there (fled from or asleep)."""
        return pos in self.visited and pos not in self.defeated

    def frontier(self) -> set[Pos]:
        """Unexplored squares behind a door of a visited location."""
        found = set()
        for pos in self.visited:
            for n in self.level.neighbours(pos):
                if n not in self.visited:
                    found.add(n)
        return found


class Move(StrEnum):
    WALK = "walk"
    TEMPLE = "temple"  # temple teleport
    SCROLL = "scroll"  # Scroll of Teleportation


@dataclass(frozen=True)
class Step:
    """One step of a planned move; ``last`` marks the move's destination (DD-22 Alt)."""

    move: Move
    to: Pos
    last: bool


def cheapest_paths(
    rules: Rules,
    state: LevelState,
    start: Pos,
    targets: Iterable[Pos],
    scroll: bool,
) -> list[Step] | None:
    """The cheapest path from ``start`` to the nearest of ``targets``, or None.

    Unvisited squares may only end a path.  Ties break on length, then on grid order,
    so the plan is deterministic.
    """
    goal = set(targets)
    if not goal:
        return None
    level = state.level
    per_entry = 0 if rules.roam_destination_only else 1
    teleport_check = 1 if rules.data.exploring.teleport_roaming_check else 0
    temples = [t for t in level.temples if t in state.visited]
    best: dict[Pos, tuple[int, int]] = {start: (0, 0)}
    came: dict[Pos, tuple[Pos, Move]] = {}
    heap: list[tuple[int, int, Pos]] = [(0, 0, start)]
    while heap:
        cost, length, pos = heapq.heappop(heap)
        if best.get(pos, (cost, length)) < (cost, length):
            continue
        if pos in goal and pos != start:
            return _unwind(came, start, pos)
        if pos != start and pos not in state.visited:
            continue
        edges: list[tuple[Pos, Move, int]] = []
        for n in level.neighbours(pos):
            if n in state.visited:
                extra = per_entry + (LIVE_MONSTER_PENALTY if state.live(n) and n not in goal else 0)
                edges.append((n, Move.WALK, extra))
            elif n in goal:
                edges.append((n, Move.WALK, 0))
        cleared = pos in state.defeated or not rules.data.exploring.teleport_requires_cleared
        if pos in temples and cleared:
            for t in temples:
                if t != pos:
                    edges.append((t, Move.TEMPLE, teleport_check))
        if scroll and pos == start and pos in state.defeated:
            for t in sorted(state.visited):
                if t != pos:
                    edges.append((t, Move.SCROLL, per_entry + SCROLL_PENALTY))
        for n, move, extra in edges:
            key = (cost + extra, length + 1)
            old = best.get(n)
            if old is None or key < old:
                best[n] = key
                came[n] = (pos, move)
                heapq.heappush(heap, (key[0], key[1], n))
    return None


def _unwind(came: dict[Pos, tuple[Pos, Move]], start: Pos, end: Pos) -> list[Step]:
    steps: list[Step] = []
    pos = end
    while pos != start:
        prev, move = came[pos]
        steps.append(Step(move, pos, pos == end))
        pos = prev
    steps.reverse()
    return steps
