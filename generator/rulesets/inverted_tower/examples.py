"""The Inverted Tower's worked examples for the rulebook's figures (issue 28).

``dungeon-log``: the first floor of the game ``towerpress play --seed`` plays, written in
the Dungeon Log as its player would (rulebook chapter *The Dungeon Log*, IT-19): one line
per room in the order found, what it held and how it went, the wandering monsters met on a
way back at the end of that room's line, "Descended" or "Died" in the last room's outcome.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from generator.engine.examples import ExampleMaker, LogExample, LogLine
from generator.engine.playlog import Step
from generator.engine.rng import normalise_seed
from generator.model.common import Profile
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.game import GameResult, TapeDice, play
from generator.rulesets.inverted_tower.narrate import items
from generator.rulesets.inverted_tower.policy import REFERENCE
from generator.rulesets.inverted_tower.rooms import wander_foes
from generator.rulesets.inverted_tower.rules import Gain, Rules, rules_for
from generator.rulesets.inverted_tower.simulate import simulation_tape
from generator.rulesets.inverted_tower.state import RoomContent, RoomKind, WanderRoll

# A wandering check names the room it is made on the way to (narrate.wander).
_TO_ROOM = re.compile(r"on the way to room (\d+)")
YES = "yes"
# The log's word for a room that is no event (its legend's first kind, sheets/log.toml).
ENCOUNTER = "Encounter"
RESTED = "Rested"
KILLED = ", killed"


def first_floor(rules: Rules, seed: str) -> tuple[GameResult, tuple[Step, ...]]:
    """The first floor of the game :func:`.simulate.play_first` plays for ``seed``
    (canonical): the same tape read by the same rules, stopped at the first descent.  A
    game of one floor plays that floor as a longer game does (the floor it ends on decides
    only what comes after its stairs), so its steps are the longer game's first ones."""
    tape = simulation_tape(seed, rules.faces)
    dice = tape.fresh()
    while True:
        log: list[Step] = []
        try:
            return play(rules, REFERENCE, TapeDice(dice), 1, log), tuple(log)
        except IndexError:
            dice += tape.fresh()


def dungeon_log(data: InvertedTower, profile: Profile, seed: str) -> LogExample:
    rules = rules_for(data, profile)
    result, steps = first_floor(rules, normalise_seed(seed))
    lines = _Lines(rules, result.floor.rooms)
    previous: Mapping[str, int | str] = {}
    for step in steps:
        state = dict(step.state)
        lines.read(step, previous, state)
        previous = state
    start = dict(next(s for s in steps if s.what == "start").state)
    return LogExample(seed, _character(rules, start), result.floor.floor,
                      tuple(LogLine(n, cells) for n, cells in sorted(lines.cells.items())),
                      "died" if not result.outcome.won else "descended")


def _character(rules: Rules, state: Mapping[str, int | str]) -> str:
    """The line at the top of the log: the attributes, HP and level, the kit."""
    attributes = ", ".join(f"{a.code} {state[a.code]}" for a in rules.data.character.attributes)
    return f"{attributes}. HP {state['hp']}. Level {state['level']}."


class _Lines:
    """The log's lines as the steps of a floor fill them in, room by room."""

    def __init__(self, rules: Rules, rooms: tuple[RoomContent, ...]):
        self.rules = rules
        self.rooms = rooms
        self.cells: dict[int, dict[str, str]] = {}
        self.here = 0  # the room the character is in
        self.wandering = False  # the last fight was a wandering encounter's

    def read(self, step: Step, before: Mapping[str, int | str],
             after: Mapping[str, int | str]) -> None:
        if step.what == "room":
            self.here = len(self.cells) + 1
            self.wandering = False
            self.cells[self.here] = _room_cells(self.rules, self.rooms[self.here - 1])
        elif step.what == "trap":
            failed = int(after["hp"]) < int(before["hp"])
            self._outcome("Failed" if failed else "Passed", replace=True)
        elif step.what == "wander":
            self._wander(step)
        elif step.what == "treasure":
            gained = items(self.rules, self.rules.treasure[step.dice[0]])
            if self.wandering:
                self.cells[self.here]["wandering"] += f", {gained}"
            else:
                self.cells[self.here]["treasure"] = gained.capitalize()
        elif step.what == "bonfire":
            self._outcome(RESTED)
        elif step.ruling == "IT-21" and step.what == "decision":
            self._outcome(_bought(self.rules, before, after))
        elif step.what == "death":
            self._died()
        elif step.what == "end":
            self._outcome("Descended")

    def _wander(self, step: Step) -> None:
        found = _TO_ROOM.search(step.text)
        if found is None:
            raise ValueError(f"a wandering check names no room: {step.text!r}")
        self.here = int(found.group(1))
        roll = WanderRoll(*step.dice)
        foes = wander_foes(self.rules, roll)
        self.wandering = bool(foes)
        if foes:
            elites = foes.count(self.rules.elite.id)
            self._add("wandering", f"{encounter_words(len(foes), elites)}{KILLED}")

    def _died(self) -> None:
        """Death ends the line: "Died" is its outcome, and a wandering fight it lost was
        no kill."""
        cells = self.cells[self.here]
        if self.wandering and cells["wandering"].endswith(KILLED):
            cells["wandering"] = cells["wandering"].removesuffix(KILLED)
        cells["outcome"] = "Died"

    def _outcome(self, text: str, *, replace: bool = False) -> None:
        """Add to the room's outcome; a bonfire rested at again counts its rests."""
        cells = self.cells[self.here]
        old = cells.get("outcome", "")
        if text == RESTED and old.startswith(RESTED):
            times = int(old.partition(" ×")[2] or 1) + 1
            cells["outcome"] = f"{RESTED} ×{times}"
        else:
            cells["outcome"] = text if replace or not old else f"{old}. {text}"

    def _add(self, key: str, text: str) -> None:
        cells = self.cells[self.here]
        cells[key] = f"{cells[key]}; {text}" if cells.get(key) else text


def _room_cells(rules: Rules, room: RoomContent) -> dict[str, str]:
    """What a new room's line says before it is played: its kind and monsters, its
    boxes; an encounter's outcome is its kill, until a death says otherwise."""
    cells = {"kind": kind_word(rules, room)}
    if room.foes:
        elites = room.foes.count(rules.elite.id)
        minions = len(room.foes) - 1 if room.kind is RoomKind.LAIR else len(room.foes)
        cells["monsters"] = (f"{minions} + boss" if room.kind is RoomKind.LAIR
                             else encounter_words(minions, elites))
        cells["outcome"] = "Killed"
    if room.stairs:
        cells["stairs"] = YES
    if room.dead_end:
        cells["dead-end"] = YES
    if room.kind is RoomKind.LAIR:
        cells["boss"] = YES
    return cells


def kind_word(rules: Rules, room: RoomContent) -> str:
    """The room's kind as the log's legend names it: the data's event name, a trap with
    its attribute ("Trap (DEX)"), or an encounter (a boss lair too: its box says boss)."""
    if room.kind in (RoomKind.ENCOUNTER, RoomKind.LAIR):
        return ENCOUNTER
    names = {row.value.kind: row.value.name for row in rules.data.events.table.rows}
    name = names[room.event] if room.event is not None else room.kind.value.capitalize()
    if room.kind is RoomKind.TRAP:
        return f"{name} ({rules.data.character.attributes[room.trap_attribute].code})"
    return name


def encounter_words(monsters: int, elites: int) -> str:
    """"2", "1, elite", "3, 1 elite": what the Monsters column says of an encounter."""
    if not elites:
        return str(monsters)
    return f"{monsters}, elite" if elites == monsters == 1 else f"{monsters}, {elites} elite"


def _bought(rules: Rules, before: Mapping[str, int | str], after: Mapping[str, int | str]
            ) -> str:
    gain = Gain(0, int(after["daggers"]) - int(before["daggers"]),
                int(after["potions"]) - int(before["potions"]))
    bought = items(rules, gain)
    return "Bought nothing" if bought == "nothing" else f"Bought {bought}"


EXAMPLES: Mapping[str, ExampleMaker] = {"dungeon-log": dungeon_log}
