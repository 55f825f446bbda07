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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from generator.engine.report import RunOutcome
from generator.engine.rng import DiceRng
from generator.rulesets.three_dice_dungeon.combat import Outcome, fight
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
    restore_mind,
)
from generator.rulesets.three_dice_dungeon.levels import (
    DEFAULT_GRID,
    Grid,
    Level,
    Pos,
)
from generator.rulesets.three_dice_dungeon.policy import Act, ReferencePolicy
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

    @property
    def state(self) -> LevelState:
        return self.levels[self.current]

    # -- levels -------------------------------------------------------------------------

    def enter_level(self, number: int) -> None:
        """Arrive at the start of level ``number`` (built on first entry)."""
        if number not in self.levels:
            level = self._build(number)
            self.levels[number] = LevelState(
                level,
                combat=self.streams("level", number, purpose="combat"),
                wandering=self.streams("level", number, purpose="wandering"),
            )
        if self.hero.flee is not None and self.hero.flee.reset == "dungeon_level":
            self.hero.flights = 0  # DD-26 Faithful: flights count per dungeon level
        self.current = number
        self.deepest = max(self.deepest, number)
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
            self.meet(state.level.cell(pos).monster.foe, pos)
        elif state.live(pos):
            state.asleep.discard(pos)  # awake again on the next visit
            self.meet(state.level.cell(pos).monster.foe, pos)
        elif roam:
            self.roaming_check()

    def roaming_check(self) -> None:
        """Returning to Danger (DD-21): a roaming die; a low roll brings a monster."""
        foe, xp = roaming_monster(
            self.rules, self.state.wandering, self.state.level.undead, self.substitution
        )
        if foe is not None:
            self.meet(foe, None, xp)

    def meet(self, foe: Foe, pos: Pos | None, roaming_xp: int = 0) -> None:
        """A fight; ``pos`` is the location whose own monster this is (None: a roamer)."""
        state = self.state
        can_run = bool(state.level.neighbours(self.pos))
        result = fight(self.rules, self.hero, foe, state.combat, self.policy, can_run)
        if result is Outcome.WON:
            self.reward(foe, pos, roaming_xp)
        elif result is Outcome.SLEPT:
            if pos is not None:
                state.asleep.add(pos)
                state.no_xp.add(pos)
        elif result is Outcome.FLED:
            here = self.pos
            ways = state.level.neighbours(here)
            self.arrive(ways[state.combat.below(len(ways))], roam=True)
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
        hero.coins += foe.loot.coins + hero.coins_next
        hero.coins_next = 0
        for item in foe.loot.items:
            self._gain(item)
        if foe.elite and rules.data.mind_recovery.elite_kill:
            restore_mind(hero)
        xp = roaming_xp
        if pos is not None:
            state.defeated.add(pos)
            cell = state.level.cell(pos)
            self._gain(cell.treasure.item)
            if pos not in state.no_xp:
                xp += cell.xp
        if xp:
            gain_xp(rules, hero, xp, self.policy)
        self.policy.tidy(rules, hero)

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
        elif decision.act is Act.MOVE:
            assert decision.step is not None
            step = decision.step
            if step.move is Move.SCROLL:
                scroll = items_with(rules, self.hero, EffectKind.TELEPORT)[0]
                self.hero.held[scroll] -= 1
            self.arrive(step.to, roams(rules, step))
        else:
            self.ended = STUCK


def play(
    rules: Rules,
    policy: ReferencePolicy,
    streams: Streams,
    depth: int,
    grid: Grid = DEFAULT_GRID,
) -> tuple[RunOutcome, Game]:
    """Play one game to its end; returns the outcome and the final game state."""
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
    )
    game.enter_level(1)
    actions = 0
    while not game.over():
        game.turn()
        actions += 1
        if actions > MAX_ACTIONS:
            raise RuntimeError("a game ran past the action bound: a bug in the player")
    outcome = RunOutcome(
        depth=game.deepest,
        won=game.won,
        death=game.ended,
        rooms=game.rooms,
    )
    return outcome, game
