"""One game of 3 Dice Dungeon from creation to a win, a death or a stop.

Streams (design.md section 4): the character, each level's layout (per attempt), and
per level the combat dice and the roaming dice come from independent streams of
(seed, run, level, purpose), so using more combat dice never changes a later level.

Rules played here: discovering a location and fighting what is there (must attack);
the location's XP (its three dice, DD-14), treasure and monster loot once it is
beaten; Returning to Danger (DD-21, DD-22); temple teleport; Boots flights into a
random neighbouring location; Sleeping Salts (DD-30: no XP for that location, awake on
the next visit); map fragments spent in vaults (one artifact per vault, the vault's
pre-rolled die); descending from a Great Hall (DD-31); the Town Portal (DD-25); an elite
kill restores Mind (DD-27).  A monster fled from is met again at full strength.

Handed a log (``play``), the game writes a step for every die and every decision: the
locations' pre-rolled dice as they are discovered, the roaming dice (through a
:class:`.dice.Recorder`, which gives the same values), the fights' dice, and the
player's choices with their reasons.  The simulator hands it none.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from generator.engine import playlog
from generator.engine.report import RunOutcome
from generator.engine.rng import DiceRng
from generator.rulesets.three_dice_dungeon.combat import Outcome, fight
from generator.rulesets.three_dice_dungeon.dice import Recorder
from generator.rulesets.three_dice_dungeon.dungeon import (
    build_level,
    has_dragon,
    roll_character,
    roll_substitution,
)
from generator.rulesets.three_dice_dungeon.effects import EffectKind, ItemKind
from generator.rulesets.three_dice_dungeon.explore import LevelState, Move, Step
from generator.rulesets.three_dice_dungeon.hero import (
    Hero,
    gain_item,
    gain_xp,
    items_with,
    record,
    restore_mind,
)
from generator.rulesets.three_dice_dungeon.levels import (
    DEFAULT_GRID,
    Cell,
    Grid,
    Level,
    LootRoll,
    Pos,
    roll_loot,
)
from generator.rulesets.three_dice_dungeon.narrate import (
    Line,
    character_lines,
    location_lines,
    loot_line,
    roaming_line,
)
from generator.rulesets.three_dice_dungeon.policy import Act, Decision, ReferencePolicy
from generator.rulesets.three_dice_dungeon.rules import Foe, Rules

Streams = Callable[..., DiceRng]  # (*place, purpose=...) -> a random source

#: Cause strings of the deaths table (kept coarse and stable).
DEATH_MONSTER = "monster"
DEATH_ELITE = "elite"
DEATH_ROAMING = "roaming monster"
DEATH_SOUL = "soul lost"
STUCK = "stuck level"  # DD-12 Alt: the level cannot be finished and the game ends

#: A safety bound on actions in one game (a bug guard, never reached in play).
MAX_ACTIONS = 100_000


def roaming_monster(
    rules: Rules, rng: DiceRng, undead: bool, substitution: dict[str, str]
) -> tuple[Foe | None, int]:
    """Returning to Danger (DD-21): the roaming die, and the monster and XP it brings.

    Faithful: the roaming table names the monster (Goblins on a 1, Orcs on a 2), never
    elite, worth no XP.  Alt: a roll on this level's monster column, rerolling the high
    faces, worth the roaming die times the data's XP per pip.  On the d6 scale the
    monster's die is the die that named it.
    """
    roaming = rules.data.exploring.roaming
    die = rng.die()
    name = roaming.table.lookup(die)
    if not name:
        return None, 0
    face = die
    xp = 0
    if rules.roaming_alt:
        face = rng.die()
        while face in roaming.alt_reroll:
            face = rng.die()
        name = rules.row(undead, face).monster
        xp = die * roaming.alt_xp_per_pip
    return rules.foe(name, face, roaming.elite, substitution), xp


def roams(rules: Rules, step: Step) -> bool:
    """Whether entering a visited location by ``step`` calls for a roaming roll.

    DD-22 Faithful: every entry; Alt: only where a move ends.  A temple teleport always
    rolls on arrival when the data says so.
    """
    if step.move is Move.TEMPLE:
        return rules.data.exploring.teleport_roaming_check
    return step.last or not rules.roam_destination_only


@dataclass
class Game:
    """A game in progress (mutable)."""

    rules: Rules
    policy: ReferencePolicy
    streams: Streams
    depth: int
    grid: Grid
    hero: Hero
    substitution: dict[str, str]
    levels: dict[int, LevelState] = field(default_factory=dict)
    current: int = 1
    pos: Pos = (0, 0)
    deepest: int = 1
    rooms: int = 0
    ended: str | None = None  # a cause of death, or STUCK
    won: bool = False
    stopped: bool = False  # left by Town Portal (DD-25 Faithful)
    log: playlog.Log = None  # where a played game writes its steps (None: simulated)

    @property
    def state(self) -> LevelState:
        return self.levels[self.current]

    def note(self, line: Line) -> None:
        """A step of the game with the character's state after it (callers check the log)."""
        if self.log is not None:
            what, text, dice, ruling = line
            record(self.log, what, text, self.hero, dice=dice, ruling=ruling)

    # -- levels -------------------------------------------------------------------------

    def enter_level(self, number: int) -> None:
        """Arrive at the start of level ``number`` (built on first entry)."""
        if number not in self.levels:
            level = self._build(number)
            wandering = self.streams("level", number, purpose="wandering")
            self.levels[number] = LevelState(
                level,
                combat=self.streams("level", number, purpose="combat"),
                wandering=wandering if self.log is None else Recorder(wandering),
            )
        if self.hero.flee is not None and self.hero.flee.reset == "dungeon_level":
            self.hero.flights = 0  # DD-26 Faithful: flights count per dungeon level
        self.current = number
        self.deepest = max(self.deepest, number)
        if self.log is not None:
            level = self.state.level
            theme = "the undead level" if level.undead else "a main level"
            self.note(("level", f"Level {number}, {theme} (layout {level.attempt + 1}), "
                       f"start at {level.start}", (), ""))
        self.arrive(self.state.level.start, roam=True)

    def _build(self, number: int) -> Level:
        dragon_before = any(has_dragon(s.level) for s in self.levels.values())
        return build_level(
            self.rules,
            lambda n, a: self.streams("level", n, "attempt", a, purpose="content"),
            number,
            self.depth,
            self.substitution,
            dragon_before,
            self.grid,
        )

    # -- arriving somewhere -------------------------------------------------------------

    def arrive(self, pos: Pos, roam: bool) -> None:
        """Enter ``pos``: discover it, meet its monster again, or check for roamers."""
        state = self.state
        self.pos = pos
        if pos not in state.visited:
            state.visited.add(pos)
            self.rooms += 1
            if self.log is not None:
                for line in location_lines(self.rules, state.level, state.level.cell(pos)):
                    self.note(line)
            self.meet(state.level.cell(pos).monster.foe, pos)
        elif state.live(pos):
            if self.log is not None:
                asleep = pos in state.asleep
                why = "awake again" if asleep else "still there"
                self.note(("monster", f"Back at {pos}: its monster is {why}", (),
                           "DD-30" if asleep else ""))
            state.asleep.discard(pos)  # awake again on the next visit
            self.meet(state.level.cell(pos).monster.foe, pos)
        elif roam:
            self.roaming_check()

    def roaming_check(self) -> None:
        """Returning to Danger (DD-21): a roaming die; a low roll brings a monster."""
        foe, xp = roaming_monster(
            self.rules, self.state.wandering, self.state.level.undead, self.substitution
        )
        if self.log is not None:
            assert isinstance(self.state.wandering, Recorder)
            self.note(roaming_line(self.rules, self.state.wandering.take(), foe))
        if foe is not None:
            self.meet(foe, None, xp)

    def meet(self, foe: Foe, pos: Pos | None, roaming_xp: int = 0) -> None:
        """A fight; ``pos`` is the location whose own monster this is (None: a roamer)."""
        state = self.state
        can_run = bool(state.level.neighbours(self.pos))
        result = fight(self.rules, self.hero, foe, state.combat, self.policy, can_run, self.log)
        if result is Outcome.WON:
            self.reward(foe, pos, roaming_xp)
        elif result is Outcome.SLEPT:
            if pos is not None:
                state.asleep.add(pos)
                state.no_xp.add(pos)
        elif result is Outcome.FLED:
            here = self.pos
            ways = state.level.neighbours(here)
            way = state.combat.below(len(ways))
            if self.log is not None:
                self.note(("flee", f"A d{len(ways)} for the way out: {way + 1}, to {ways[way]}",
                           (way + 1,), "DD-26"))
            self.arrive(ways[way], roam=True)
        elif result is Outcome.LEFT:
            if self.rules.portal_to_start:  # DD-25 Alt: back to level 1's start
                self.enter_level(1)
            else:
                self.stopped = True
        elif result is Outcome.SOUL_LOST:
            self.ended = DEATH_SOUL
        else:
            self.ended = (
                DEATH_ROAMING if pos is None else DEATH_ELITE if foe.elite else DEATH_MONSTER
            )

    def reward(self, foe: Foe, pos: Pos | None, roaming_xp: int) -> None:
        """A won fight: loot (with a Divine Rod's coins), then the location's XP and treasure."""
        rules, hero, state = self.rules, self.hero, self.state
        coins = foe.loot.coins + hero.coins_next
        hero.coins += coins
        hero.coins_next = 0
        for item in foe.loot.items:
            self._gain(item)
        # DD-33 Alt: a roll on the loot's chart, pre-rolled for a location's monster and
        # rolled on the roaming dice for a roamer.
        cell = state.level.cell(pos) if pos is not None else None
        rolled = cell.loot if cell is not None else self._roamer_loot(foe)
        if rolled is not None:
            self._gain(rolled.item)
        if self.log is not None:
            self._note_loot(foe, coins, rolled)
        if foe.elite and rules.data.mind_recovery.elite_kill:
            restore_mind(hero)
            self.note(("mind", "An elite killed: Mind back to its maximum", (), "DD-27"))
        xp = roaming_xp
        if cell is not None:
            state.defeated.add(cell.pos)
            self._gain(cell.treasure.item)
            if self.log is not None:
                self.note(("take", f"Take the treasure: {cell.treasure.item}", (), ""))
            if cell.pos not in state.no_xp:
                xp += cell.xp
        if xp:
            why = ("", "")
            if self.log is not None:
                why = (_xp_source(cell), "DD-14" if cell is not None else "DD-21")
            gain_xp(rules, hero, xp, self.policy, self.log, why)
        self.policy.tidy(rules, hero)

    def _roamer_loot(self, foe: Foe) -> LootRoll | None:
        """A roamer's loot roll, on the roaming dice (its own step gives them, not the next
        roaming roll's)."""
        wandering = self.state.wandering
        rolled = roll_loot(self.rules, wandering, foe)
        if isinstance(wandering, Recorder):
            wandering.take()
        return rolled

    def _note_loot(self, foe: Foe, coins: int, rolled: LootRoll | None) -> None:
        """The loot step of a won fight, and its chart roll's (DD-33 Alt)."""
        items = ", ".join(foe.loot.items)
        money = f"{coins} coin{'s' if coins != 1 else ''}" if coins else ""
        got = ", ".join(p for p in (money, items) if p)
        self.note(("loot", f"The {foe.name} are beaten; loot: {got or 'nothing'}", (), ""))
        if rolled is not None:
            self.note(loot_line(foe, rolled))

    def _gain(self, item: str) -> None:
        """Gain an item; an artifact counts toward going down (DD-31)."""
        gain_item(self.rules, self.hero, item)
        if self.rules.items[item].kind is ItemKind.ARTIFACT:
            self.hero.artifacts += 1
            self.state.artifacts += 1

    # -- the turn loop ------------------------------------------------------------------

    def over(self) -> bool:
        return self.ended is not None or self.won or self.stopped

    def turn(self) -> None:
        """One decision of the player: go down, dig up an artifact, or take one step."""
        rules, state = self.rules, self.state
        decision = self.policy.decide(rules, self.hero, state, self.pos)
        if self.log is not None:
            self._note_decision(decision)
        if decision.act is Act.DESCEND:
            if self.current == self.depth:
                self.won = True
            else:
                self.enter_level(self.current + 1)
        elif decision.act is Act.UNEARTH:
            fragment = items_with(rules, self.hero, EffectKind.UNEARTH_ARTIFACT)[0]
            self.hero.held[fragment] -= 1
            state.vaults_used.add(self.pos)
            die = state.level.cell(self.pos).artifact_die
            assert die is not None
            self._gain(rules.data.artifacts.lookup(die).name)
            if self.log is not None:
                self.note(("artifact", f"The vault's artifact die {die}: "
                           f"{rules.data.artifacts.lookup(die).name}", (die,), ""))
        elif decision.act is Act.MOVE:
            assert decision.step is not None
            step = decision.step
            if step.move is Move.SCROLL:
                scroll = items_with(rules, self.hero, EffectKind.TELEPORT)[0]
                self.hero.held[scroll] -= 1
            self.arrive(step.to, roams(rules, step))
        else:
            self.ended = STUCK

    def _note_decision(self, decision: Decision) -> None:
        """A turn's decision, with where it leads and why."""
        if decision.act is Act.DESCEND:
            where = "win: down from the last level" if self.current == self.depth else (
                f"go down to level {self.current + 1}")
            self.note(("decision", f"{where[0].upper()}{where[1:]}: {decision.reason}", (),
                       "DD-31"))
        elif decision.act is Act.UNEARTH:
            self.note(("decision", f"Spend a map fragment here: {decision.reason}", (), ""))
        elif decision.act is Act.MOVE and decision.step is not None:
            step = decision.step
            how = {Move.WALK: "Walk", Move.TEMPLE: "Teleport from this temple",
                   Move.SCROLL: "Read the Scroll of Teleportation"}[step.move]
            self.note(("move", f"{how} to {step.to}: {decision.reason}", (), ""))
        else:
            self.note(("decision", f"Stop: {decision.reason}", (), "DD-12"))


def _xp_source(cell: Cell | None) -> str:
    """Where a won fight's XP comes from: the location's dice (DD-14) or the roaming die."""
    if cell is None:
        return "the roaming die's worth"
    m = cell.monster
    dice = cell.location_die + m.die + cell.treasure.die
    bonus = f" + elite bonus {cell.xp - dice}" if m.xp_rolls else ""
    return f"the location's dice {cell.location_die} + {m.die} + {cell.treasure.die}{bonus}"


def play(
    rules: Rules,
    policy: ReferencePolicy,
    streams: Streams,
    depth: int,
    grid: Grid = DEFAULT_GRID,
    log: playlog.Log = None,
) -> tuple[RunOutcome, Game]:
    """Play one game to its end; returns the outcome and the final game state.

    ``log``: where the game writes its steps; a policy made with the same list writes its
    decisions there too (``simulate.played``).
    """
    character = roll_character(
        rules,
        streams("character", purpose="content"),
        lambda dice: policy.assign(rules, dice),
        lambda names: policy.creation_class(rules, names),
    )
    game = Game(
        rules=rules,
        policy=policy,
        streams=streams,
        depth=depth,
        grid=grid,
        hero=Hero(rules, character),
        substitution=roll_substitution(rules, streams("dungeon", purpose="substitution")),
        log=log,
    )
    if log is not None:
        for line in character_lines(rules, character):
            game.note(line)
        for name, used in sorted(game.substitution.items()):
            game.note(("substitution", f"This dungeon's {name} are {used}", (), "DD-09"))
    return play_out(game), game


def play_out(game: Game) -> RunOutcome:
    """Play ``game`` from the first level to its end."""
    game.enter_level(1)
    actions = 0
    while not game.over():
        game.turn()
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError("a game ran past the action bound: a bug in the player")
    return RunOutcome(depth=game.deepest, won=game.won, death=game.ended, rooms=game.rooms)
