"""Pre-rolled content of 3 Dice Dungeon: each level's map on a fixed grid (Mode A).

Everything here is drawn from a content stream per (seed, place, level, attempt), never
from the combat or roaming dice, so a player's choices never change a later level
(design.md section 4).  Every derived value sits beside the raw dice that gave it, so the
checker (:mod:`.check`) can recompute it.

Mode A (rulings.md 2.4): each level is laid out on a fixed grid.  The generator plays the
mapping rules the way a player would, breadth first from the start: every location gets
its three dice, its exit roll (DD-10), and its exits are drawn on free legal sides, the
rest dropped (DD-11).  An exit that leads to an empty square opens it for the next
location; a door already pointing into a square must be matched by the location placed
there (recorded as ``forced`` when it goes beyond the roll).  When every door is closed
before the level can be finished, DD-12's fallback adds one exit to the most recently
placed location with a free side, and the layout goes on.  Training wheels (DD-29) apply
on the first level only, where the game's first and second locations are found: to its
start (the first location) and to the locations one door away (any of them can be the
second), so the wheel for location ``k`` covers the squares ``k - 1`` doors from the
start; later levels roll their monsters as they come.  The start counts the way in from
above as one of its exits (invariant 2.5.4).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from generator.engine.rng import DiceRng
from generator.rulesets.three_dice_dungeon.effects import EffectKind, ItemKind
from generator.rulesets.three_dice_dungeon.rules import (
    SIDE_STEPS,
    Foe,
    Rules,
    opposite,
    roll_dice,
)

Pos = tuple[int, int]


@dataclass(frozen=True)
class Grid:
    """The fixed map of a level: ``width`` x ``height`` squares and the start square.

    The size is a layout choice of the booklet (a page holds a 7 x 7 grid), not a rule of
    the game; it is a parameter so a booklet may print another.
    """

    width: int
    height: int
    start: Pos

    def inside(self, pos: Pos) -> bool:
        return 0 <= pos[0] < self.width and 0 <= pos[1] < self.height


DEFAULT_GRID = Grid(7, 7, (3, 3))


def step(pos: Pos, side: int) -> Pos:
    dx, dy = SIDE_STEPS[side]
    return (pos[0] + dx, pos[1] + dy)


@lru_cache(maxsize=16)
def grid_sides(grid: Grid) -> dict[Pos, tuple[tuple[int, Pos], ...]]:
    """For each square, its sides that stay on the grid and the squares they lead to."""
    return {
        (x, y): tuple(
            (s, step((x, y), s)) for s in range(len(SIDE_STEPS)) if grid.inside(step((x, y), s))
        )
        for x in range(grid.width)
        for y in range(grid.height)
    }


# -- one location -------------------------------------------------------------------------


@dataclass(frozen=True)
class MonsterRoll:
    """The monster column: every roll, the monster it gives and its stats.

    ``rolls`` are the monster die's rolls, training-wheel rerolls first; the last counts.
    ``elite_rolls`` are DD-13's rolls for an elite's base monster (the last counts; empty
    under DD-13 Alt, whose elite is the signature monster at ``base_face``);
    ``xp_rolls`` the elite's bonus XP dice (DD-14).
    """

    rolls: tuple[int, ...]
    elite_rolls: tuple[int, ...]
    base_face: int
    xp_rolls: tuple[int, ...]
    name: str
    foe: Foe

    @property
    def die(self) -> int:
        return self.rolls[-1]

    @property
    def elite(self) -> bool:
        return self.foe.elite


@dataclass(frozen=True)
class TreasureRoll:
    """The treasure column's die, the chart rolls it led to, and the item found."""

    die: int
    chart_rolls: tuple[tuple[str, int], ...]
    item: str


@dataclass(frozen=True)
class LootRoll:
    """A monster's loot rolled on a chart (DD-33 Alt), pre-rolled like a vault's artifact
    die: the chart rolls and the item they give."""

    chart_rolls: tuple[tuple[str, int], ...]
    item: str


@dataclass(frozen=True)
class Cell:
    """One location on the map, with its raw dice and what they give.

    ``exit_rolls`` holds each exit roll's raw dice (several under DD-11 Alt's rerolls),
    ``exit_count`` the last roll's total (the way in included).  ``exits`` are the sides
    with a door on the grid; the start's way in from above is not among them
    (``entrance_above``).  Invariant 2.5.2: ``len(exits) + entrance_above ==
    exit_count - dropped + len(forced) + len(fallback)``.
    """

    pos: Pos
    order: int
    distance: int
    location_die: int
    kind: str
    exit_rolls: tuple[tuple[int, ...], ...]
    exit_count: int
    exits: tuple[int, ...]
    dropped: int
    forced: tuple[int, ...]
    fallback: tuple[int, ...]
    entrance_above: bool
    monster: MonsterRoll
    treasure: TreasureRoll
    artifact_die: int | None  # a vault's pre-rolled artifact die, used if a fragment is spent
    xp: int
    loot: LootRoll | None = None  # the monster's loot roll, when its loot has one (DD-33)

    @property
    def gains(self) -> tuple[str, ...]:
        """The items beating this location's monster brings: treasure, then loot."""
        rolled = (self.loot.item,) if self.loot is not None else ()
        return (self.treasure.item, *self.monster.foe.loot.items, *rolled)


@dataclass(frozen=True)
class Level:
    """One dungeon level laid out on its grid (Mode A).

    ``substitution`` is the dungeon's monster substitution (DD-09); ``temples`` the
    teleport list and ``descents`` the squares where going down is marked available.
    ``stuck``: no fallback could make the level finishable.
    """

    number: int
    undead: bool
    attempt: int
    grid: Grid
    substitution: tuple[tuple[str, str], ...]
    cells: tuple[Cell, ...]
    temples: tuple[Pos, ...]
    descents: tuple[Pos, ...]
    stuck: bool
    index: Mapping[Pos, Cell] = field(default_factory=dict, compare=False, repr=False)
    links: Mapping[Pos, tuple[Pos, ...]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Lookups by square, derived from the cells (not part of the level's identity).
        if not self.index:
            object.__setattr__(self, "index", {c.pos: c for c in self.cells})
        if not self.links:
            links = {c.pos: tuple(step(c.pos, s) for s in c.exits) for c in self.cells}
            object.__setattr__(self, "links", links)

    def cell(self, pos: Pos) -> Cell:
        """Raises KeyError for an empty square."""
        return self.index[pos]

    def neighbours(self, pos: Pos) -> tuple[Pos, ...]:
        """The squares the doors of ``pos`` lead to (they may be off the map if invalid)."""
        return self.links[pos]

    @property
    def start(self) -> Pos:
        return self.grid.start


def roll_monster(
    rules: Rules,
    rng: DiceRng,
    undead: bool,
    wheel: Sequence[int],
    substitution: Mapping[str, str],
) -> MonsterRoll:
    """Roll the monster column: training wheels (DD-29), elites (DD-13), XP die (DD-14)."""
    rolls = [rng.die()]
    while rolls[-1] in wheel:  # training wheels: reroll as often as needed
        rolls.append(rng.die())
    row = rules.row(undead, rolls[-1])
    elite_rolls: list[int] = []
    xp_rolls: tuple[int, ...] = ()
    face = rolls[-1]
    if row.elite:
        elite = rules.data.elite
        if rules.elite_rerolls_base:
            # DD-13 Faithful: roll again for the base monster, rerolling the elite faces
            # (never the training wheels, DD-29).
            elite_rolls.append(rng.die())
            while elite_rolls[-1] in elite.reroll_faces or rules.row(undead, elite_rolls[-1]).elite:
                elite_rolls.append(rng.die())
            face = elite_rolls[-1]
        else:
            face = rules.signature_face()  # DD-13 Alt: the dungeon's signature monster
        xp_rolls, _ = roll_dice(rng, elite.xp_bonus)
    name = rules.row(undead, face).monster
    foe = rules.foe(name, face, row.elite, substitution)
    return MonsterRoll(tuple(rolls), tuple(elite_rolls), face, xp_rolls, foe.name, foe)


def roll_treasure(rules: Rules, rng: DiceRng, undead: bool) -> TreasureRoll:
    """Roll the treasure column and any chart it sends to (DD-15, DD-16)."""
    die = rng.die()
    reward = rules.row(undead, die).treasure
    gain = reward.gain_for(rules.gain_alt(reward.alt_ruling))
    if gain.item:
        return TreasureRoll(die, (), gain.item)
    chart_rolls, item = roll_chart(rules, rng, gain.chart)
    return TreasureRoll(die, chart_rolls, item)


def roll_chart(rules: Rules, rng: DiceRng, chart: str) -> tuple[tuple[tuple[str, int], ...], str]:
    """Roll on ``chart`` and any chart it sends to: the (chart, face) rolls and the item."""
    chart_rolls: list[tuple[str, int]] = []
    item = ""
    while not item:
        face = rng.die()
        chart_rolls.append((chart, face))
        if chart == "items":
            entry = rules.data.items.lookup(face)
            if entry.item is not None:
                item = entry.item.name
            else:
                chart = entry.chart
        elif chart == "stones":
            item = rules.data.stones.lookup(face).name
        else:
            item = rules.data.artifacts.lookup(face).name
    return tuple(chart_rolls), item


def roll_loot(rules: Rules, rng: DiceRng, foe: Foe) -> LootRoll | None:
    """The roll a monster's loot calls for (DD-33 Alt: the Dragons' Special), or None."""
    if not foe.loot.chart:
        return None
    return LootRoll(*roll_chart(rules, rng, foe.loot.chart))


def location_xp(rules: Rules, location_die: int, monster: MonsterRoll, treasure_die: int) -> int:
    """XP of a location: its three dice, plus an elite's bonus dice (DD-14)."""
    bonus = sum(monster.xp_rolls) + rules.data.elite.xp_bonus.plus if monster.xp_rolls else 0
    return location_die + monster.die + treasure_die + bonus


# -- a level ------------------------------------------------------------------------------


@dataclass
class _Layout:
    """The level while it is laid out (mutable; frozen into a :class:`Level` at the end)."""

    cells: dict[Pos, Cell] = field(default_factory=dict)
    order: list[Pos] = field(default_factory=list)
    pending: dict[Pos, set[int]] = field(default_factory=dict)  # doors into empty squares
    distance: dict[Pos, int] = field(default_factory=dict)
    queue: deque[Pos] = field(default_factory=deque)

    def open_door(self, pos: Pos, side: int) -> None:
        target = step(pos, side)
        self.pending.setdefault(target, set()).add(opposite(side))
        if target not in self.distance:
            self.distance[target] = self.distance[pos] + 1
            self.queue.append(target)

    def free_sides(self, pos: Pos, grid: Grid) -> list[int]:
        """Sides leading to an empty square on the grid (legal for a new door)."""
        cells = self.cells
        return [s for s, n in grid_sides(grid)[pos] if n not in cells]


def _place(
    rules: Rules,
    rng: DiceRng,
    lay: _Layout,
    pos: Pos,
    grid: Grid,
    undead: bool,
    substitution: Mapping[str, str],
    wheels: Mapping[int, tuple[int, ...]],
) -> None:
    """Roll and place the location at ``pos``, opening its new doors (DD-10, DD-11);
    ``wheels`` are the level's training wheels by discovery number (DD-29)."""
    start = pos == grid.start
    distance = lay.distance[pos]
    location_die = rng.die()
    kind = rules.row(undead, location_die).location
    wheel = wheels.get(distance + 1, ())
    monster = roll_monster(rules, rng, undead, wheel, substitution)
    treasure = roll_treasure(rules, rng, undead)
    mandatory = sorted(lay.pending.get(pos, set()))
    taken = len(mandatory) + (1 if start else 0)
    legal = [s for s in lay.free_sides(pos, grid) if s not in mandatory]
    dice = rules.exit_dice[kind]
    raw, count = roll_dice(rng, dice)
    exit_rolls = [raw]
    if rules.reroll_exit_count and dice.count:
        # DD-11 Alt: reroll a count that does not fit, while some roll could fit.
        while count - taken > len(legal) and dice.minimum - taken <= len(legal):
            raw, count = roll_dice(rng, dice)
            exit_rolls.append(raw)
    need = count - taken
    dropped = max(0, need - len(legal))
    forced = tuple(mandatory[len(mandatory) + need :]) if need < 0 else ()
    rng.shuffle(legal)
    chosen = legal[: max(0, min(need, len(legal)))]
    artifact_die = rng.die() if rules.kinds[kind].is_vault else None
    # Last, so that a loot roll (DD-33 Alt) leaves every other die of the level as it is.
    loot = roll_loot(rules, rng, monster.foe)
    cell = Cell(
        pos=pos,
        order=len(lay.order),
        distance=distance,
        location_die=location_die,
        kind=kind,
        exit_rolls=tuple(exit_rolls),
        exit_count=count,
        exits=tuple(sorted(mandatory + chosen)),
        dropped=dropped,
        forced=forced,
        fallback=(),
        entrance_above=start,
        monster=monster,
        treasure=treasure,
        artifact_die=artifact_die,
        xp=location_xp(rules, location_die, monster, treasure.die),
        loot=loot,
    )
    lay.cells[pos] = cell
    lay.order.append(pos)
    for side in sorted(chosen):
        lay.open_door(pos, side)


def completable(rules: Rules, cells: Sequence[Cell]) -> bool:
    """Invariant 2.5.5 on a set of reachable cells: a way down and an artifact source.

    An artifact source is a treasure or a loot roll that is an artifact (DD-15/16 Alt,
    DD-33 Alt), or a vault together with a map fragment from a treasure or a monster's
    loot.  Unknown kinds and items (corrupt content) count for nothing.
    """
    kinds = [rules.kinds.get(c.kind) for c in cells]
    if not any(k is not None and k.allows_descent for k in kinds):
        return False
    for c in cells:
        for name in c.gains:
            item = rules.items.get(name)
            if item is not None and item.kind is ItemKind.ARTIFACT:
                return True
    vault = any(k is not None and k.is_vault for k in kinds)
    return vault and any(fragment_source(rules, c) for c in cells)


def fragment_source(rules: Rules, cell: Cell) -> bool:
    """Whether beating this location's monster yields a map fragment (treasure or loot)."""
    for name in cell.gains:
        effect = rules.effects.get(name)
        if effect is not None and effect.kind is EffectKind.UNEARTH_ARTIFACT:
            return True
    return False


def generate_level(
    rules: Rules,
    rng: DiceRng,
    number: int,
    undead: bool,
    substitution: Mapping[str, str],
    grid: Grid = DEFAULT_GRID,
    attempt: int = 0,
) -> Level:
    """Lay out one level breadth first from the start (Mode A, DD-10/11/12, DD-29)."""
    lay = _Layout()
    # DD-29: the first and second locations discovered are on the first level (Mode A:
    # its start and its neighbours, rulings.md 2.4); no other level has training wheels.
    wheels = rules.wheels if number == 1 else {}
    lay.distance[grid.start] = 0
    lay.queue.append(grid.start)
    fallbacks: dict[Pos, list[int]] = {}
    stuck = False
    while True:
        while lay.queue:
            pos = lay.queue.popleft()
            if pos not in lay.cells:
                _place(rules, rng, lay, pos, grid, undead, substitution, wheels)
        if completable(rules, list(lay.cells.values())):
            break
        if not rules.stuck_fallback:  # DD-12 Alt: the level is lost
            stuck = True
            break
        # DD-12 Faithful: one more exit on the most recently placed location with a free side.
        for pos in reversed(lay.order):
            free = lay.free_sides(pos, grid)
            if free:
                side = free[rng.below(len(free))]
                fallbacks.setdefault(pos, []).append(side)
                lay.open_door(pos, side)
                break
        else:
            stuck = True
            break
    cells = []
    for pos in lay.order:
        cell = lay.cells[pos]
        added = tuple(sorted(fallbacks.get(pos, ())))
        if added:
            cell = _with_fallback(cell, added)
        cells.append(cell)
    return Level(
        number=number,
        undead=undead,
        attempt=attempt,
        grid=grid,
        substitution=tuple(sorted(substitution.items())),
        cells=tuple(cells),
        temples=tuple(c.pos for c in cells if rules.kinds[c.kind].is_temple),
        descents=tuple(c.pos for c in cells if rules.kinds[c.kind].allows_descent),
        stuck=stuck,
    )


def _with_fallback(cell: Cell, added: tuple[int, ...]) -> Cell:
    return replace(cell, exits=tuple(sorted(cell.exits + added)), fallback=added)
