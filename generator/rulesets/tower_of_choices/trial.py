"""The trial (TC-20) and its seeded generation for simulation and booklets.

A trial is an ordered run of named rooms.  Each room holds one or more obstacles, perhaps
loot and perhaps a rest spot (TC-20 Faithful); under TC-20 Alt the rooms are grouped into
floors with a rest between one floor and the next, and rooms carry no rest spot of their own.

The original publishes no obstacles, and this project adds no rule numbers, so the
simulation's *generic* obstacles are built only from the data:

* the obstacle names a few skills as its approaches, as the DM does (issue 24): their
  number is uniform from ``checks.obstacle_limits``' fewest to most approaches, and the
  skills are drawn one by one without repeats, uniformly over those left; they are listed
  in table order, and the player may take no other approach;
* each approach is the standard obstacle (``checks.standard_obstacle``) or the standard
  obstacle with one of the adjustment rows that the DM decides (``checks.adjustments`` with
  ``decided_by = "dm"``: a clever approach, a difficult obstacle, a poor fit) applied once
  in the row's direction, uniformly over those 1 + rows variants (one roll per approach,
  in table order); a change that would break ``checks.obstacle_limits`` is not applied;
* the obstacle names one item that helps (uniform over the catalogue plus "none"): carried,
  it gives the Equipment row's DRAW step, or, for an item whose modifier has a condition
  (the reference book, TC-17), it means the condition holds here;
* the failure setback is uniform over ``setbacks.toml`` (TC-18); success lets you pass;
* a room holds from 1 up to the number of standard obstacles a smallest legal deck pays for
  (``min_deck // standard_draw``), its loot is uniform over the catalogue plus "none", and
  the cost of resting outside a rest spot (TC-21 Alt) is a setback, uniform over the table;
* rest spots (Faithful) or floor ends (Alt) are placed greedily as late as invariant 4 of
  rulings.md 3.5 allows: the cards that the cheapest approaches of the obstacles between two
  rests need never exceed the smallest legal deck.

Every random choice is a :class:`Roll` (the raw value beside its bound), drawn from the
stream of (seed, ruleset, place..., room, "content"), so a room never depends on play or on
the rooms after it, and the checker (:mod:`.checks`) can recompute every derived field.
Names are placeholders ("Room 3", "Obstacle 3.1").

A booklet's trial (:func:`generate_catalogue_trial`) is built the same way from the obstacle
catalogue (``tables/catalogue.toml``) instead: each room takes a name not yet used, from 1
to as many obstacles as above, each an obstacle of the catalogue not yet met in the trial
(all of them again once every one has been met, never one twice in a room), perhaps a
loot entry (uniform over the entries plus "none"), a rest spot to rest at if the rules give
a rest after it, and a rest cost; the last room is the catalogue's top room, with no loot
and no rest.  Each room draws from its own stream, as above, but what it may pick depends
on the rooms before it, so the checker replays the rooms in order.  A booklet's trial also
carries the pre-made characters of its character page (:mod:`.premade`, issue 26).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from generator.engine.rng import SplitMix64, stream
from generator.errors import TowerpressError
from generator.rulesets.tower_of_choices.entities import Adjustment, CatalogueObstacle
from generator.rulesets.tower_of_choices.rules import Rules, require_economy
from generator.rulesets.tower_of_choices.state import RULESET, Character


@dataclass(frozen=True)
class Roll:
    """One raw random draw: ``value`` uniform in ``[0, bound)``; ``name`` says what it
    decides (a catalogue trial's rolls are named: "room", "obstacle 2", "loot"...)."""

    bound: int
    value: int
    name: str = ""


@dataclass(frozen=True)
class Approach:
    """One way through an obstacle: the skill, its DRAW and TARGET (before items), and the
    sources of the adjustment rows applied to it.  A catalogue obstacle's approach names
    the items that help it (``helps``) and what each adds, (DRAW, TARGET) in
    ``help_steps`` (:meth:`.entities.Item.help_for`)."""

    skill: str
    draw: int
    target: int
    applied: tuple[str, ...] = ()
    helps: tuple[str, ...] = ()
    help_steps: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Obstacle:
    name: str
    approaches: tuple[Approach, ...]
    helps: tuple[str, ...]  # item names
    failure: str  # a setback name (TC-18)
    success: str = "pass"

    def approach(self, skill: str) -> Approach | None:
        return next((a for a in self.approaches if a.skill == skill), None)

    def cheapest_draw(self) -> int:
        """The smallest DRAW of its approaches; 0 for an obstacle without any (a broken
        one, which the checker reports as ``obstacle-limits``): it costs no card to meet."""
        return min((a.draw for a in self.approaches), default=0)


@dataclass(frozen=True)
class Room:
    """A room; ``number`` is 1-based.  ``rolls`` are the raw draws in the order taken."""

    number: int
    name: str
    obstacles: tuple[Obstacle, ...]
    loot: str | None
    rest_spot: bool  # TC-20 Faithful; always False under TC-20 Alt
    rest_cost: str  # the setback a rest outside a rest spot costs here (TC-21 Alt)
    floor: int  # 1-based group of rooms between rests
    rolls: tuple[Roll, ...]
    rest_place: str = ""  # a catalogue room's rest spot, when the rules rest after it

    @property
    def cards_needed(self) -> int:
        """Cards the cheapest approaches of this room's obstacles need (invariant 4)."""
        return sum(o.cheapest_draw() for o in self.obstacles)


@dataclass(frozen=True)
class Premade:
    """A pre-made character of a booklet (issue 26), with what its card prints beside it,
    as written: its deck, cards of each skill in the order first picked (TC-14, ARCANE's
    extra card), and the coins it has left after buying its items (TC-15)."""

    character: Character
    deck: tuple[tuple[str, int], ...]
    coins_left: int


@dataclass(frozen=True)
class Trial:
    seed: str
    profile: str
    place: tuple[str, ...]
    rooms: tuple[Room, ...]
    from_catalogue: bool = False  # a booklet's trial (generate_catalogue_trial)
    characters: tuple[Premade, ...] = ()  # a booklet's pre-made characters (.premade)

    def __repr__(self) -> str:
        return (
            f"Trial(seed={self.seed!r}, profile={self.profile!r}, place={self.place!r}, "
            f"rooms={len(self.rooms)})"
        )

    def floor_end(self, room: Room) -> bool:
        """True when a floor ends after ``room`` and another follows (TC-20 Alt rest)."""
        return room.number < len(self.rooms) and self.rooms[room.number].floor != room.floor


class Recorder:
    """Draws from a generator and keeps every raw value."""

    def __init__(self, rng: SplitMix64 | Iterator[Roll]):
        self.rng = rng
        self.rolls: list[Roll] = []

    def below(self, bound: int, name: str = "") -> int:
        if isinstance(self.rng, SplitMix64):
            roll = Roll(bound, self.rng.below(bound), name)
        else:  # replaying recorded rolls (the checker)
            # Not StopIteration at the end: a generator expression would turn it into a
            # RuntimeError.
            replayed = next(self.rng, None)
            if replayed is None:
                raise ValueError(f"expected a roll below {bound}, got none: the rolls ran out")
            if (replayed.bound, replayed.name) != (bound, name):
                raise ValueError(f"expected a roll {name!r} below {bound}, got {replayed!r}")
            roll = replayed
        self.rolls.append(roll)
        return roll.value


def room_budget(rules: Rules) -> int:
    """The most cards between rests: the smallest legal deck (invariant 4)."""
    return rules.min_deck


@lru_cache(maxsize=64)
def dm_rows(rules: Rules) -> tuple[Adjustment, ...]:
    """The adjustment rows the DM decides: the generic obstacles' difficulty spread."""
    return tuple(row for row in rules.data.checks.adjustments if row.decided_by == "dm")


@lru_cache(maxsize=4096)
def _approach(rules: Rules, skill: str, variant: int) -> Approach:
    """The approach for ``skill``: the standard obstacle (``variant`` 0) or the standard
    obstacle with DM row ``variant - 1`` applied once, unless the limits forbid it."""
    checks = rules.data.checks
    draw, target = checks.standard_draw, checks.standard_target
    if variant == 0:
        return Approach(skill, draw, target)
    row = dm_rows(rules)[variant - 1]
    new_draw = draw + row.direction if row.changes == "draw" else draw
    new_target = target + row.direction if row.changes == "target" else target
    if (
        new_draw < checks.obstacle_min_draw
        or new_target < checks.obstacle_min_target
        or (checks.obstacle_target_at_most_draw and new_target > new_draw)
    ):
        return Approach(skill, draw, target)  # the limits win over the roll
    return Approach(skill, new_draw, new_target, (row.source,))


def _optional_item(rules: Rules, rec: Recorder) -> str | None:
    items = rules.data.items
    value = rec.below(len(items) + 1)
    return items[value].name if value < len(items) else None


def _approaches(rules: Rules, rec: Recorder) -> tuple[Approach, ...]:
    """The approaches a generic obstacle names: how many, which skills, then each one's
    variant (see the module's docstring)."""
    checks = rules.data.checks
    names = rules.data.skill_names
    fewest, most = checks.obstacle_fewest_approaches, checks.obstacle_most_approaches
    wanted = fewest + rec.below(most - fewest + 1)
    left = list(range(len(names)))
    picked = sorted(left.pop(rec.below(len(left))) for _ in range(wanted))
    variants = len(dm_rows(rules)) + 1
    return tuple(_approach(rules, names[i], rec.below(variants)) for i in picked)


def derive_room(rules: Rules, number: int, rec: Recorder) -> Room:
    """The room's content from its rolls (rest spot and floor are set by :func:`place_rests`)."""
    data = rules.data
    most = max(1, room_budget(rules) // data.checks.standard_draw)
    wanted = rec.below(most) + 1
    loot = _optional_item(rules, rec)
    rest_cost = data.setbacks[rec.below(len(data.setbacks))].name
    obstacles: list[Obstacle] = []
    for k in range(1, wanted + 1):
        helper = _optional_item(rules, rec)
        failure = data.setbacks[rec.below(len(data.setbacks))].name
        obstacles.append(
            Obstacle(
                name=f"Obstacle {number}.{k}",
                approaches=_approaches(rules, rec),
                helps=(helper,) if helper else (),
                failure=failure,
            )
        )
    # A room never needs more cards than the smallest deck holds (invariant 4): drop the
    # trailing obstacles that would (only possible when every approach got a DRAW step).
    while len(obstacles) > 1 and sum(o.cheapest_draw() for o in obstacles) > room_budget(rules):
        obstacles.pop()
    return Room(
        number=number,
        name=f"Room {number}",
        obstacles=tuple(obstacles),
        loot=loot,
        rest_spot=False,
        rest_cost=rest_cost,
        floor=1,
        rolls=tuple(rec.rolls),
    )


def place_rests(rules: Rules, rooms: list[Room]) -> list[Room]:
    """Group rooms greedily so that the cards between rests fit the smallest deck; mark a
    rest spot at each group's last room (TC-20 Faithful) or only number the floors (Alt)."""
    placed: list[Room] = []
    floor, spent = 1, 0
    for i, room in enumerate(rooms):
        spent += room.cards_needed
        last = i == len(rooms) - 1
        breaks = not last and spent + rooms[i + 1].cards_needed > room_budget(rules)
        # A catalogue room keeps its rest spot's name only where a rest is taken.
        rest_place = room.rest_place if breaks else ""
        placed.append(replace(room, rest_spot=breaks and not rules.floors, floor=floor,
                              rest_place=rest_place))
        if breaks:
            floor, spent = floor + 1, 0
    return placed


def generate_trial(rules: Rules, seed: str, rooms: int, place: tuple[str, ...] = ()) -> Trial:
    """A trial of ``rooms`` rooms for (seed, place): deterministic, prefix-stable.

    Raises:
        ValueError: the data's deck economy is not the one the engine plays
            (:func:`.rules.require_economy`), or ``rooms`` is below 1.
    """
    require_economy(rules.data)
    if rooms < 1:
        raise ValueError(f"a trial needs at least one room, got {rooms}")
    made = [
        derive_room(rules, n, Recorder(stream(seed, RULESET, *place, n, purpose="content")))
        for n in range(1, rooms + 1)
    ]
    placed = tuple(place_rests(rules, made))
    return Trial(seed, rules.profile_id, place, placed)


# -- a booklet's trial, from the obstacle catalogue --------------------------------------


class CatalogueDeal:
    """What the rooms so far have used of the catalogue: room names (never again) and
    obstacles (not again until every one has been met)."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.met: set[str] = set()


def catalogue_obstacle(rules: Rules, entry: CatalogueObstacle) -> Obstacle:
    """The trial's obstacle for a catalogue entry: its approaches with their helping
    items and what each adds (as :func:`.procedures.check_numbers` plays them)."""
    step = rules.equipment_draw_step

    def steps(skill: str, items: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
        # The loader refuses an item that adds nothing (help_for None); (0, 0) is never used.
        return tuple(rules.items[i].help_for(skill, step) or (0, 0) for i in items)

    approaches = tuple(Approach(a.skill, a.draw, a.target, (), a.items, steps(a.skill, a.items))
                       for a in entry.approaches)
    return Obstacle(entry.name, approaches, (), entry.setback)


def _pick_obstacle(rules: Rules, rec: Recorder, deal: CatalogueDeal, k: int,
                   here: Sequence[str]) -> Obstacle:
    entries = rules.data.catalogue.obstacles
    pool = [e for e in entries if e.name not in deal.met and e.name not in here]
    if not pool:  # every obstacle met: they all come round again, none twice in a room
        deal.met = set()
        pool = [e for e in entries if e.name not in here]
    return catalogue_obstacle(rules, pool[rec.below(len(pool), f"obstacle {k}")])


def catalogue_room(rules: Rules, number: int, top: bool, rec: Recorder,
                   deal: CatalogueDeal) -> Room:
    """Room ``number`` of a catalogue trial from its rolls, ``top`` for the last; rests and
    floors are set by :func:`place_rests`."""
    catalogue, data = rules.data.catalogue, rules.data
    if top:
        name = catalogue.top.name
    else:
        free = [p.name for p in catalogue.rooms if p.name not in deal.names]
        name = free[rec.below(len(free), "room")]
        deal.names.add(name)
    most = max(1, room_budget(rules) // data.checks.standard_draw)
    obstacles: list[Obstacle] = []
    for k in range(1, rec.below(most, "obstacles") + 2):
        obstacles.append(_pick_obstacle(rules, rec, deal, k, [o.name for o in obstacles]))
    # A room never needs more cards than the smallest deck holds (invariant 4), as above.
    while len(obstacles) > 1 and sum(o.cheapest_draw() for o in obstacles) > room_budget(rules):
        obstacles.pop()
    deal.met.update(o.name for o in obstacles)
    loot, rest_place = None, ""
    if not top:
        value = rec.below(len(catalogue.loot) + 1, "loot")
        loot = catalogue.loot[value].item if value < len(catalogue.loot) else None
        rest_place = catalogue.rest_spots[rec.below(len(catalogue.rest_spots), "rest spot")].name
    rest_cost = data.setbacks[rec.below(len(data.setbacks), "rest cost")].name
    return Room(number, name, tuple(obstacles), loot, False, rest_cost, 1, tuple(rec.rolls),
                rest_place)


def derive_catalogue_rooms(rules: Rules, recorders: Sequence[Recorder]) -> list[Room]:
    """The rooms of a catalogue trial, one per recorder, in order (before the rests).

    Raises:
        ValueError: a replayed recorder's rolls do not fit (the checker reports it).
    """
    deal = CatalogueDeal()
    last = len(recorders)
    return [catalogue_room(rules, n, n == last, rec, deal) for n, rec in enumerate(recorders, 1)]


def most_catalogue_rooms(rules: Rules) -> int:
    """The most rooms a booklet's trial can have: one per room name, and the top."""
    return len(rules.data.catalogue.rooms) + 1


def generate_catalogue_trial(rules: Rules, seed: str, rooms: int,
                             place: tuple[str, ...] = ()) -> Trial:
    """A booklet's trial of ``rooms`` rooms from the catalogue, for (seed, place).

    Raises:
        ValueError: as :func:`generate_trial`.
        TowerpressError: more rooms than the catalogue has names for (invariant 8: every
            room's name is its own).
    """
    require_economy(rules.data)
    if rooms < 1:
        raise ValueError(f"a trial needs at least one room, got {rooms}")
    if rooms > most_catalogue_rooms(rules):
        raise TowerpressError(
            f"a Tower of Choices booklet has at most {most_catalogue_rooms(rules)} rooms, one "
            f"for each room name of tables/catalogue.toml and the top; got {rooms}")
    recorders = [Recorder(stream(seed, RULESET, *place, n, purpose="content"))
                 for n in range(1, rooms + 1)]
    placed = tuple(place_rests(rules, derive_catalogue_rooms(rules, recorders)))
    return Trial(seed, rules.profile_id, place, placed, from_catalogue=True)
