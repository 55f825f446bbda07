"""Many games of The Inverted Tower: the simulator behind ``towerpress simulate``.

Dice come from a tape of bytes drawn from a fast local generator
(:class:`random.Random`, used as a local object) seeded from the project's stable stream
for (seed, ruleset, purpose "simulate") (design.md section 4). Games read the tape one
after the other; when a game runs off its end, the unread part is kept, more dice are
appended and the game is replayed from its first die, so the outcome is the same as on
an endless tape. The same seed therefore gives the same outcomes, whatever the batch.
Within a game, room dice (a fixed record per new room), wandering dice and combat dice
follow each other on the one tape in the order the procedure asks for them; that is
enough for statistics. Booklets keep separate streams per floor and purpose instead
(``booklet.py``), so that a player's combat dice never move a room.

The fast path (``fast.py``) plays the profiles it covers; every other profile or policy
plays through the reference rules (``game.py``) on the same tape.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from generator.engine.family import Progress
from generator.engine.playlog import PlayedGame, Step
from generator.engine.report import RunOutcome
from generator.engine.rng import stream
from generator.model.common import Profile
from generator.rulesets.inverted_tower.booklet import FloorContent, resolve_floor
from generator.rulesets.inverted_tower.data import InvertedTower
from generator.rulesets.inverted_tower.fast import (
    CAUSES,
    FastBatch,
    decode,
    fast_supported,
    make_fast_batch,
)
from generator.rulesets.inverted_tower.game import TapeDice, play
from generator.rulesets.inverted_tower.policy import REFERENCE, Policy
from generator.rulesets.inverted_tower.rooms import (
    NeedMoreDice,
    complete_roll,
    draw_room_roll,
    draw_wander_roll,
)
from generator.rulesets.inverted_tower.rules import Rules, rules_for
from generator.rulesets.inverted_tower.state import FloorState, RoomKind, RoomRoll, WanderRoll

RULESET = "inverted-tower"
CHUNK = 1 << 16  # random bytes drawn at a time
PROGRESS_EVERY = 4096

#: ``game(tape, cursor) -> (outcome, cursor after)``; IndexError when the tape runs out.
Game = Callable[[bytes, int], tuple[RunOutcome, int]]


class DiceTape:
    """A growing tape of die faces (bytes 1..faces) from a local generator.

    Bytes at or above the largest multiple of ``faces`` are dropped, so every face is
    equally likely (no modulo bias).
    """

    def __init__(self, seed: int, faces: int):
        if not 1 < faces < 256:
            raise ValueError(f"a byte tape holds dice of 2 to 255 faces, not {faces}")
        self._rng = random.Random(seed)
        limit = 256 - 256 % faces
        self._table = bytes((b % faces) + 1 if b < limit else 0 for b in range(256))
        self._drop = bytes(range(limit, 256))

    def fresh(self, at_least: int = CHUNK) -> bytes:
        out = b""
        while len(out) < at_least:
            out += self._rng.randbytes(CHUNK).translate(self._table, self._drop)
        return out


def simulation_tape(seed: str, faces: int) -> DiceTape:
    """The one tape the games of ``seed`` read, one after the other (the first from its
    first die); it does not depend on the profile."""
    return DiceTape(stream(seed, RULESET, purpose="simulate").next(), faces)


def play_first(data: InvertedTower, profile: Profile, seed: str, depth: int,
               policy: Policy = REFERENCE) -> PlayedGame:
    """The first game :func:`simulate` plays for ``seed``, with every step of it.

    It reads the start of the same tape through the reference rules, which the fast path
    matches die for die, so its outcome is the first outcome of the simulation.
    """
    rules = rules_for(data, profile)
    tape = simulation_tape(seed, rules.faces)
    dice = tape.fresh()
    while True:
        log: list[Step] = []
        try:
            result = play(rules, policy, TapeDice(dice), depth, log)
        except IndexError:
            dice += tape.fresh()  # the same dice on a longer tape: the same game, further
            continue
        return PlayedGame(result.outcome, tuple(log))


def reference_game(rules: Rules, policy: Policy, floors: int) -> Game:
    def game(tape: bytes, cursor: int) -> tuple[RunOutcome, int]:
        dice = TapeDice(tape, cursor)
        return play(rules, policy, dice, floors).outcome, dice.pos

    return game


def run_games(game: Game, tape: DiceTape, runs: int,
              progress: Progress | None = None) -> list[RunOutcome]:
    """Play ``runs`` games one after the other on ``tape``."""
    outcomes: list[RunOutcome] = []
    append = outcomes.append
    buf = tape.fresh()
    cursor = 0
    done = 0
    while done < runs:
        stop = min(runs, done + PROGRESS_EVERY)
        try:
            while done < stop:
                outcome, cursor = game(buf, cursor)
                append(outcome)
                done += 1
        except IndexError:
            # The game ran off the tape: keep its dice, add more, play it again.
            buf = buf[cursor:] + tape.fresh(len(buf) - cursor + CHUNK)
            cursor = 0
            continue
        if progress is not None:
            progress(done)
    return outcomes


def simulate(data: InvertedTower, profile: Profile, runs: int, seed: str, depth: int,
             progress: Progress | None = None, policy: Policy = REFERENCE) -> list[RunOutcome]:
    """``runs`` games of at most ``depth`` floors by the reference player.

    ``seed`` is a canonical seed string (:func:`generator.engine.rng.normalise_seed`).
    The tape does not depend on the profile, so two profiles play the same dice.
    """
    rules = rules_for(data, profile)
    tape = simulation_tape(seed, rules.faces)
    if fast_supported(rules, policy):
        return run_batches(make_fast_batch(rules, policy, depth), tape, runs, progress)
    return run_games(reference_game(rules, policy, depth), tape, runs, progress)


def run_batches(batch: FastBatch, tape: DiceTape, runs: int,
                progress: Progress | None = None) -> list[RunOutcome]:
    """Play ``runs`` games with the fast path; the same dice as :func:`run_games`."""
    codes: list[int] = []
    buf = tape.fresh()
    cursor = 0
    while len(codes) < runs:
        before = len(codes)
        want = min(runs - before, PROGRESS_EVERY)
        cursor = batch(buf, cursor, want, codes)
        if len(codes) - before < want:
            # A game ran off the tape: keep its dice, add more, play on from it.
            buf = buf[cursor:] + tape.fresh(len(buf) - cursor + CHUNK)
            cursor = 0
        elif progress is not None:
            progress(len(codes))
    outcomes: dict[int, RunOutcome] = {}
    for code in set(codes):
        depth, cause, rooms = decode(code)
        outcomes[code] = RunOutcome(depth, cause == 0, CAUSES[cause], rooms)
    return [outcomes[code] for code in codes]


# -- the odds of one booklet ------------------------------------------------------------------

#: A booklet floor's room rolls, and the indexes of the rooms that are traps under the
#: rules played (None: the rolls do not make the floor alone, complete them in play).
BookletRooms = tuple[tuple[RoomRoll, ...], frozenset[int] | None]


class BookletOddsDice:
    """One play of a booklet's odds: its rooms' dice, and fresh dice for the rest.

    The rooms are the booklet's (``rooms``: each floor's rolls, complete for the rules
    played, and the rooms that are traps under them); fights, trap checks (a booklet's
    trap reads the combat tape, so the room's own ``trap_check`` die is replaced) and
    wandering checks read fresh dice from the stable stream of (seed, ruleset, run,
    "odds"), eight a draw, byte by byte, the bytes past the last whole multiple of the
    faces dropped (no bias). A floor whose rolls the rules played need more of (another
    profile: IT-02 Alt, IT-25) is completed with fresh dice, and a floor past the booklet
    has fresh rooms, as in a game.
    """

    __slots__ = ("_buf", "_faces", "_limit", "_rng", "_rooms")

    def __init__(self, rooms: Mapping[int, BookletRooms], seed: str, run: int, faces: int):
        self._rooms = rooms
        self._rng = stream(seed, RULESET, run, purpose="odds")
        self._faces = faces
        self._limit = 256 - 256 % faces
        self._buf: list[int] = []

    def die(self) -> int:
        while not self._buf:
            word = self._rng.next().to_bytes(8, "little")
            self._buf = [b % self._faces + 1 for b in reversed(word) if b < self._limit]
        return self._buf.pop()

    def room(self, rules: Rules, fs: FloorState) -> RoomRoll:
        rolls, traps = self._rooms.get(fs.floor, ((), None))
        k = fs.explored
        if k >= len(rolls):
            return draw_room_roll(rules, fs, self.die)
        roll = rolls[k]
        if traps is None:  # a floor the booklet's rolls do not resolve alone under these rules
            return complete_roll(rules, fs, replace(roll, trap_check=self.die()), self.die)
        if k in traps:
            roll = RoomRoll(roll.dead_end, roll.event_check, roll.event_roll, roll.trap_kind,
                            self.die(), roll.elite, roll.count, roll.treasure, roll.minions,
                            roll.rerolls, roll.extra_treasure)
        return roll

    def wander(self, floor: int) -> WanderRoll:
        return draw_wander_roll(self.die)

    def combat(self, floor: int) -> int:
        return self.die()


def booklet_rooms(rules: Rules, floor: FloorContent) -> BookletRooms:
    """The floor's rolls read by ``rules``: under another profile than the booklet's they
    may need more dice, or make a floor of another length."""
    rolls = tuple(room.roll for room in floor.rooms)
    try:
        rooms = resolve_floor(rules, floor.floor, rolls)
    except (NeedMoreDice, ValueError):
        return rolls, None
    if not rooms[-1:] or not rooms[-1].last:
        return rolls, None
    return rolls, frozenset(i for i, room in enumerate(rooms) if room.kind is RoomKind.TRAP)


def booklet_odds(rules: Rules, floors: Sequence[FloorContent], runs: range, seed: str,
                 policy: Policy = REFERENCE) -> list[RunOutcome]:
    """``runs`` plays of the booklet's ``floors`` by the reference player under ``rules``
    (the booklet's profile or another: the same dice, read by these rules), each with
    fresh dice (:class:`BookletOddsDice`), not the tapes; ``seed`` is canonical."""
    rooms = {floor.floor: booklet_rooms(rules, floor) for floor in floors}
    return [play(rules, policy, BookletOddsDice(rooms, seed, run, rules.faces),
                 len(floors)).outcome for run in runs]
