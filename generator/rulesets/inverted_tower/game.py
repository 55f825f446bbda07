"""One game of The Inverted Tower by the reference rules: floors, rooms, moves.

:func:`play` runs the canonical turn procedure (rulings.md 1.3) with the reference
player's choices (``policy.py``), reading dice from a :class:`DiceSource`: a sequential
tape for the simulator (:class:`TapeDice`) or a pre-rolled booklet
(``booklet.BookletDice``). The fast simulator must agree with it on the same tape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from generator.engine.playlog import Log
from generator.engine.report import RunOutcome
from generator.rulesets.inverted_tower import narrate
from generator.rulesets.inverted_tower.policy import MoveKind, Policy
from generator.rulesets.inverted_tower.procedures import (
    BOSS,
    ELITE,
    MONSTER,
    TRAP,
    WANDERING,
    attack,
    bonfire,
    drink,
    new_hero,
    shop,
    start_fight,
    trap_check,
)
from generator.rulesets.inverted_tower.rooms import (
    draw_room_roll,
    draw_wander_roll,
    record_room,
    resolve_room,
    wander_foes,
    wander_treasure,
)
from generator.rulesets.inverted_tower.rules import Gain, Rules
from generator.rulesets.inverted_tower.state import (
    FloorState,
    Hero,
    RoomContent,
    RoomKind,
    RoomRoll,
    WanderRoll,
)


class DiceSource(Protocol):
    """Where a game's dice come from, by purpose (design.md section 4)."""

    def room(self, rules: Rules, fs: FloorState) -> RoomRoll: ...

    def wander(self, floor: int) -> WanderRoll: ...

    def combat(self, floor: int) -> int: ...


class TapeDice:
    """Every die from one sequential tape, in the order the procedure asks for them.

    Raises IndexError when the tape runs out (the simulator then replays the game on a
    longer tape, which gives the same result since the dice are the same).
    """

    __slots__ = ("pos", "tape")

    def __init__(self, tape: Sequence[int], pos: int = 0):
        self.tape = tape
        self.pos = pos

    def next(self) -> int:
        die = self.tape[self.pos]
        self.pos += 1
        return die

    def room(self, rules: Rules, fs: FloorState) -> RoomRoll:
        return draw_room_roll(rules, fs, self.next)

    def wander(self, floor: int) -> WanderRoll:
        return draw_wander_roll(self.next)

    def combat(self, floor: int) -> int:
        return self.next()


@dataclass(frozen=True)
class GameResult:
    outcome: RunOutcome
    hero: Hero
    floor: FloorState


def cause_of(rules: Rules, foe_id: str) -> str:
    if foe_id == rules.boss.id:
        return BOSS
    if foe_id == rules.elite.id:
        return ELITE
    return MONSTER


def fight(rules: Rules, policy: Policy, hero: Hero, floor: int, foes: tuple[str, ...],
          dice: DiceSource, log: Log = None) -> tuple[Hero, str]:
    """Fight ``foes`` to the end (IT-17: no retreat). Returns the hero and the killer id."""
    state = start_fight(rules, policy, hero, floor, foes)
    while not state.over:
        state = attack(rules, policy, state, dice.combat(floor), log)
    return state.hero, state.killer


def last_floor(rules: Rules, floors: int) -> int:
    """The floor whose stairs win a run of ``floors`` floors (IT-27)."""
    last = rules.first_floor + floors - 1
    return min(last, rules.win_floor) if rules.win_floor > 0 else last


def use_room(rules: Rules, policy: Policy, hero: Hero, fs: FloorState,
             room: RoomContent, log: Log = None) -> tuple[Hero, FloorState]:
    """The event of a room entered or re-entered (IT-21, IT-22)."""
    if room.kind not in (RoomKind.MERCHANT, RoomKind.BONFIRE):
        return hero, fs
    again = room.index in fs.used
    if not rules.events_reusable and again:
        return hero, fs
    if room.kind is RoomKind.MERCHANT:
        hero = shop(rules, policy, hero, log, fs.floor)
    else:
        hero = bonfire(hero)
        if log is not None:
            log.append(narrate.bonfire(rules, hero, fs.floor, again))
    return hero, replace(fs, used=fs.used | {room.index})


def _gain(rules: Rules, hero: Hero, floor: int, die: int, gain: Gain | None,
          log: Log) -> Hero:
    """Treasure after a won fight or a passed trap (IT-15, IT-24), when there is any."""
    if gain is None:
        return hero
    hero = hero.gain(gain)
    if log is not None:
        log.append(narrate.treasure(rules, hero, floor, die, gain))
    return hero


def _died(rules: Rules, hero: Hero, fs: FloorState, room: int, killer: str,
          log: Log) -> None:
    if log is not None:
        log.append(narrate.death(rules, hero, fs.floor, room, killer))


def explore(rules: Rules, policy: Policy, hero: Hero, fs: FloorState, dice: DiceSource,
            log: Log = None) -> tuple[Hero, FloorState, str | None]:
    """Enter the next new room and resolve it (rulings.md 1.3, canonical procedure)."""
    before = fs
    room = resolve_room(rules, fs, dice.room(rules, fs))
    fs = record_room(fs, room)
    floor = fs.floor
    if log is not None:
        log.append(narrate.room(rules, before, room, hero))
    if room.kind is RoomKind.TRAP:
        hero, passed, dead = trap_check(rules, policy, hero, floor, room.trap_attribute,
                                        room.roll.trap_check, log)
        if dead:
            _died(rules, hero, fs, room.index, "the trap", log)
            return hero, fs, TRAP
        if passed or rules.trap_fail_treasure:  # IT-15; the data's word on a failed trap
            hero = _gain(rules, hero, floor, room.roll.treasure, room.treasure, log)
    elif room.foes:
        hero, killer = fight(rules, policy, hero, floor, room.foes, dice, log)
        if killer:
            _died(rules, hero, fs, room.index, f"the {narrate.foe_name(rules, killer)}", log)
            return hero, fs, cause_of(rules, killer)
        hero = _gain(rules, hero, floor, room.roll.treasure, room.treasure, log)
        if room.kind is RoomKind.LAIR:  # the boss's fixed loot (IT-25)
            hero = hero.gain(room.loot)
            if log is not None:
                log.append(narrate.loot(rules, hero, floor))
    else:
        hero, fs = use_room(rules, policy, hero, fs, room, log)
    return hero, fs, None


def walk_back(rules: Rules, policy: Policy, hero: Hero, fs: FloorState, target: int,
              dice: DiceSource, log: Log = None) -> tuple[Hero, FloorState, str | None]:
    """Move back to a logged room: wandering checks on the way (IT-22, IT-23, IT-24)."""
    here = fs.position
    if rules.wandering_per_room:
        step = -1 if target < here else 1
        walked = list(range(here + step, target + step, step))
    else:
        walked = [target]
    for index in walked:
        roll = dice.wander(fs.floor)
        foes = wander_foes(rules, roll)
        treasure = wander_treasure(rules, roll) if foes else None
        if log is not None:
            log.append(narrate.wander(rules, hero, fs.floor, index, roll, foes, treasure))
        if not foes:
            continue
        hero, killer = fight(rules, policy, hero, fs.floor, foes, dice, log)
        if killer:
            _died(rules, hero, fs, index,
                  f"a wandering {narrate.foe_name(rules, killer)}", log)
            return hero, fs, WANDERING
        hero = _gain(rules, hero, fs.floor, roll.treasure, treasure, log)
    fs = replace(fs, position=target)
    hero, fs = use_room(rules, policy, hero, fs, fs.rooms[target - 1], log)
    return hero, fs, None


def play(rules: Rules, policy: Policy, dice: DiceSource, floors: int,
         log: Log = None) -> GameResult:
    """One game down at most ``floors`` floors; winning means descending from the last.

    ``log``, when given, receives a step for every die and every decision (``narrate.py``).
    """
    hero = new_hero(rules, policy)
    if log is not None:
        log.extend(narrate.start(rules, hero, policy.starting_attribute(rules)))
    final = last_floor(rules, floors)
    floor = rules.first_floor
    rooms = 0
    while True:
        fs = FloorState(floor)
        if log is not None:
            log.append(narrate.floor(rules, hero, floor))
        while True:
            hero = _between_rooms(rules, policy, hero, floor, log)
            move = policy.next_move(rules, hero, fs)
            if log is not None:
                log.append(narrate.move(rules, policy, hero, fs, move))
            if move.kind is MoveKind.DESCEND:
                break
            if move.kind is MoveKind.EXPLORE:
                rooms += 1
                hero, fs, cause = explore(rules, policy, hero, fs, dice, log)
            else:
                hero, fs, cause = walk_back(rules, policy, hero, fs, move.room, dice, log)
            if cause is not None:
                depth = floor - rules.first_floor + 1
                return GameResult(RunOutcome(depth, False, cause, rooms), hero, fs)
        if floor >= final:
            if log is not None:
                log.append(narrate.won(rules, hero, floor))
            depth = floor - rules.first_floor + 1
            return GameResult(RunOutcome(depth, True, None, rooms), hero, fs)
        floor += 1


def _between_rooms(rules: Rules, policy: Policy, hero: Hero, floor: int, log: Log) -> Hero:
    """IT-10 Alt: potions only between rooms, when the reference player thinks it time."""
    if not policy.drink_between_rooms(rules, hero):
        return hero
    after = drink(hero)
    if log is not None:
        log.append(narrate.drink(rules, hero, after, floor, ""))
    return after
