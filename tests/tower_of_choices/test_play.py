"""``towerpress play`` for Tower of Choices: a logged game replayed line by line by a small,
independent re-implementation of the rules (issue 24).

The replay reads only the content's data objects and the log.  From each step's dice it
rebuilds what the step says (the character, each room and its obstacles, every shuffle,
INDEFATIGABLE's pick), tracks the deck card by card (every draw must be the top of its
pile), judges each check itself (TC-01, TC-02, TC-04, TC-05), applies each challenge
card's fate, setback, rest and drink, and compares the state the step shows.  It plays the
readings the bundled profiles take, and refuses a profile that takes any other.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from generator.engine.playlog import Step
from generator.model.common import Profile
from generator.rulesets.tower_of_choices.entities import AbilityKind, SetbackKind
from generator.rulesets.tower_of_choices.family import FAMILY
from tests.tower_of_choices.support import PROFILES, data, profile

CH = data().checks.challenge_label
# Seeds 0-11, and those whose games hold the rarer lines (WHIRLWIND, two challenge cards in
# one draw, QUICK DRAW's felled obstacle, a rest lost with the reward...).
SEEDS = [f"int:{n}" for n in (*range(12), 17, 18, 23, 115, 215, 279)] + ["str:play"]
#: The readings the replay plays both ways; every other must be Faithful.
BOTH = {"TC-02", "TC-04", "TC-08", "TC-12", "TC-17", "TC-20", "TC-21", "TC-25"}


def fisher_yates(cards: list[str], dice: tuple[int, ...]) -> list[str]:
    assert len(dice) == max(len(cards) - 1, 0)
    out = list(cards)
    for i, j in zip(range(len(out) - 1, 0, -1), dice, strict=True):
        out[i], out[j] = out[j], out[i]
    return out


def top_first(text: str) -> list[str]:
    return text.split("the pile, top first: ")[1].split(", ")[::-1] if "no card" not in text else []


@dataclass
class Replay:
    alt: set[str]
    pile: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # lost items whose modifiers stay
    skills: list[str] = field(default_factory=list)
    ability: str = ""
    hindered: int = 0
    reserve: int = 0
    obstacles: list[tuple[list[tuple[str, int, int]], str, str]] = field(default_factory=list)
    now: tuple[list[tuple[str, int, int]], str, str] = ([], "", "")
    check: tuple[str, int, int, int] = ("", 0, 0, 0)  # skill, DRAW, TARGET, cards committed
    lost_reward: bool = False
    loot: str | None = None
    failed: bool = False  # the last check failed: a setback may follow
    resting: bool = False  # resting anywhere (TC-21 Alt): its cost follows
    room_cost: str = ""  # the room's cost of resting anywhere
    fates: list[int] = field(default_factory=list)  # the challenge cards of the hand
    others: list[str] = field(default_factory=list)  # and its skill cards

    # -- the character, the deck, the rooms ------------------------------------------------
    def character(self, step: Step) -> None:
        d = data()
        dice, names = list(step.dice), list(d.skill_names)
        self.skills = [names.pop(dice.pop(0)) for _ in range(d.character.starting_skills)]
        ability = d.abilities[dice.pop(0)]
        self.ability = ability.name
        coins = ability.effect(AbilityKind.STARTING_COINS)
        left = coins.amount if coins else d.character.starting_coins
        while dice and len(self.items) < d.character.max_starting_items:
            fits = [i for i in d.items if i.cost <= left]  # TC-16: a kit is one item
            self.items.append(fits[dice.pop(0)].name)
            left -= d.item(self.items[-1]).cost
        assert step.text.startswith(f"a new character: skills {', '.join(self.skills)}; "
                                    f"ability {self.ability};")
        assert dict(step.state)["items"] == ("; ".join(self.items) or "none")

    def shuffle(self, step: Step) -> None:
        per = data().character.cards_per_starting_skill
        deck = [s for s in self.skills for _ in range(per)]
        extra = data().ability(self.ability).effect(AbilityKind.EXTRA_CARD)
        deck += [extra.skill] * extra.amount if extra else []
        self.pile = fisher_yates(deck, step.dice)
        assert top_first(step.text) == self.pile

    def room(self, step: Step) -> None:
        d, checks = data(), data().checks
        dice = list(step.dice)
        count = dice.pop(0) + 1
        pick = dice.pop(0)
        self.loot = d.items[pick].name if pick < len(d.items) else None
        dice.pop(0)  # the rest cost (TC-21 Alt): checked where a rest pays it
        rows = [a for a in checks.adjustments if a.decided_by == "dm"]
        self.obstacles = []
        for _ in range(count):
            helper, failure = dice.pop(0), d.setbacks[dice.pop(0)].name
            left = list(range(len(d.skill_names)))
            picked = [left.pop(dice.pop(0)) for _ in range(checks.obstacle_fewest_approaches
                                                             + dice.pop(0))]
            approaches = []
            for i in sorted(picked):
                draw, target, v = checks.standard_draw, checks.standard_target, dice.pop(0)
                if v:
                    row = rows[v - 1]
                    draw += row.direction if row.changes == "draw" else 0
                    target += row.direction if row.changes == "target" else 0
                approaches.append((d.skill_names[i], draw, target))
            helps = d.items[helper].name if helper < len(d.items) else ""
            self.obstacles.append((approaches, helps, failure))
        # A room never needs more cards than the smallest deck holds: trailing ones go.
        while len(self.obstacles) > 1 and sum(
            min(a[1] for a in o[0]) for o in self.obstacles
        ) > d.starting_deck_size():
            self.obstacles.pop()
        assert not dice and f": {len(self.obstacles)} obstacle" in step.text
        self.lost_reward = False
        self.room_cost = d.setbacks[step.dice[2]].name

    def obstacle(self, step: Step) -> None:
        self.now = self.obstacles.pop(0)
        approaches, helps, failure = self.now
        named = [(s, int(a), int(b)) for s, a, b in
                 re.findall(r"([A-Z][a-z]+(?: [a-z]+)?) DRAW (\d+), TARGET (\d+)", step.text)]
        assert named == approaches and step.text.endswith(f"failure costs {failure}")
        assert (f"; {helps} helps;" in step.text) is bool(helps)

    def felled(self, step: Step) -> None:
        self.obstacles.pop(0)

    # -- a check -----------------------------------------------------------------------------
    def numbers(self, skill: str, draw: int, target: int) -> tuple[int, int]:
        """DRAW and TARGET now: items, kept modifiers, the helping item, Hindered."""
        checks, helps = data().checks, self.now[1]
        for name in self.items + [k for k in self.kept if k not in self.items]:
            for m in data().item(name).modifiers:
                applies = not m.condition or "TC-17" in self.alt or name == helps
                if m.skill == skill and applies and (name in self.items or m.kept_if_lost):
                    draw, target = draw + m.draw, target + m.target
        if helps in self.items and not any(m.condition for m in data().item(helps).modifiers):
            draw += next(a.direction for a in checks.adjustments  # the Equipment row
                         if a.decided_by == "item" and a.changes == "draw")
        return max(draw, 0), max(target + self.hindered, checks.target_floor)

    def decision(self, step: Step) -> None:
        found = re.match(r"(?:WHIRLWIND[^:]*: )?(.+?) \(DRAW (\d+), TARGET (\d+)\): draw (\d+)"
                         r"( after burning)?", step.text)
        if found is None:
            return  # a drink, a rest or the challenge cards: their own lines follow
        skill, draw, target, k = found[1], int(found[2]), int(found[3]), int(found[4])
        base = next(a for a in self.now[0] if a[0] == skill)
        assert (draw, target) == self.numbers(skill, base[1], base[2]) and 0 <= k <= draw
        burn = data().ability(self.ability).effect(AbilityKind.BURN_TOP_CARD_FOR_EXTRA_DRAW)
        self.check = (skill, draw, target, k + (burn.amount if found[5] and burn else 0))

    def burn(self, step: Step) -> None:
        self.hindered = 0  # the check has begun
        card = step.text.split(": ")[1].split(", ")[0]
        assert ("picked from the pile" in step.text) is ("TC-12" in self.alt)
        if "TC-12" in self.alt:
            self.pile.remove(card)  # picked: the engine takes the first from the bottom
        else:
            assert self.pile.pop() == card
        self.discard.append(card)

    def check_line(self, step: Step) -> None:
        skill, _, target, cards = self.check
        self.hindered = 0
        per_card = data().checks.challenge_target_per_card
        while len(self.hand) < cards and self.pile:
            need = target + per_card * self.hand.count(CH)
            if "TC-04" in self.alt and self.hand.count(skill) >= need:
                break  # stopped at the first success
            self.hand.append(self.pile.pop())
        assert step.text.startswith(f"drew {', '.join(self.hand) or 'no card'}:")
        success = self.hand.count(skill) >= target + per_card * self.hand.count(CH)
        assert step.text.endswith("success" if success else "failure")
        self.failed = not success
        self.fates = [i for i, c in enumerate(self.hand) if c == CH]
        self.others = [c for c in self.hand if c != CH]

    def exhausted(self, step: Step) -> None:
        assert len(self.pile) < self.check[1] if "TC-02" in self.alt else not self.pile
        self.hindered, self.failed = 0, True

    def challenge(self, step: Step) -> None:
        """One challenge card of the hand, in order; a card that leaves becomes ""."""
        at, others = self.fates.pop(0), self.others
        found = re.match(r"the CHALLENGE card is rewritten as (.+?)(,|$)", step.text)
        if found:  # TC-07 Faithful: whatever the result; a name from the draw (invariant 6)
            assert found[1] in others
            self.hand[at] = found[1]
        elif "stays" in step.text:  # TC-08 Alt: it goes to discard unconverted
            assert not others and "TC-08" in self.alt
        else:  # TC-08 Faithful: nothing to copy
            assert not others and "no skill card" in step.text
            self.hand[at] = ""

    # -- after a check -----------------------------------------------------------------------
    def setback(self, step: Step) -> None:
        name, detail = step.text.removeprefix("setback ").split(": ", 1)
        setback = next(s for s in data().setbacks if s.name == name)
        assert (self.failed and name == self.now[2]) or (self.resting and name == self.room_cost)
        if setback.kind == SetbackKind.TARGET_UP:
            self.hindered += setback.amount
        elif setback.kind == SetbackKind.DRAIN:
            drained = [self.pile.pop() for _ in range(min(setback.amount, len(self.pile)))]
            assert detail.startswith(", ".join(drained) or "the pile is already empty")
            self.discard += drained
        elif setback.kind == SetbackKind.LOSE_ITEM:
            gone = detail.removesuffix(" lost")
            if self.items:
                self.items.remove(gone)
                self.kept.append(gone)
            else:
                assert detail == "nothing left to lose"
        elif setback.kind == SetbackKind.LOSE_REWARD:
            self.lost_reward = True
        self.resting = False

    def refresh(self, step: Step) -> None:
        spent = [i for i, c in enumerate(self.discard) if c != CH]
        card = self.discard.pop(spent[step.dice[0]])
        self.pile.insert(step.dice[1], card)
        place = len(self.pile) - step.dice[1]
        assert re.match(rf"INDEFATIGABLE: {card} .*, {place}(st|nd|rd|th) from the top", step.text)

    def passed(self, step: Step) -> None:
        assert self.failed and "TC-25" in self.alt

    def loot_line(self, step: Step) -> None:
        assert self.loot and self.loot in step.text
        if step.text.startswith("take"):
            assert not self.lost_reward
            self.items.append(self.loot)
        else:
            assert self.lost_reward or "no room" in step.text

    def rest(self, step: Step) -> None:
        added = re.search(r"with (\d+) CHALLENGE", step.text)
        k = int(added[1]) if added else 0
        self.reserve += self.discard.count(CH)  # TC-08 Alt: they wait outside the deck
        cards = [c for c in self.discard if c != CH] + self.pile + [CH] * k
        self.reserve -= min(self.reserve, k)
        self.pile, self.discard = fisher_yates(cards, step.dice), []
        assert top_first(step.text) == self.pile

    def drink(self, step: Step) -> None:
        item = step.text.split(" drunk: ")[0]
        assert data().item(item).one_use
        self.items.remove(item)
        back = [c for c in self.discard if c != CH]
        self.discard = [c for c in self.discard if c == CH]
        self.pile = fisher_yates(self.pile + back, step.dice)
        assert top_first(step.text) == self.pile

    def shown(self) -> dict[str, object]:
        hand = [c for c in self.hand if c]
        deck = Counter(self.pile + hand + self.discard)
        return {"pile": len(self.pile), "discard": len(self.discard) + len(hand),
                "deck": ", ".join(f"{c} {n}" for c, n in sorted(deck.items())),
                "items": "; ".join(self.items) or "none", "hindered": self.hindered}

    def step(self, step: Step) -> None:
        if step.what != "challenge":
            self.discard += [c for c in self.hand if c]
            self.hand = []
        if step.what == "decision" and step.ruling == "TC-21":
            self.resting = True
        handlers = {
            "character": self.character, "shuffle": self.shuffle, "room": self.room,
            "obstacle": self.obstacle, "felled": self.felled, "decision": self.decision,
            "burn": self.burn, "check": self.check_line, "exhausted": self.exhausted,
            "challenge": self.challenge, "setback": self.setback, "refresh": self.refresh,
            "passed": self.passed, "loot": self.loot_line, "rest": self.rest,
            "drink": self.drink,
        }
        if step.what in handlers:
            handlers[step.what](step)
        else:
            assert step.what in ("outcome", "rest-lost"), step
        if step.what != "character":
            assert dict(step.state) == self.shown(), step


def replay(prof: Profile, seed: str) -> list[Step]:
    taken = {r for r, reading in prof.readings.items() if reading == "alt"}
    assert taken <= BOTH, f"the replay does not play {sorted(taken - BOTH)}"
    game = FAMILY.play(data(), prof, seed, FAMILY.default_depth)
    assert game.outcome == next(iter(FAMILY.simulate(data(), prof, 1, seed, 8, None)))
    player = Replay(taken)
    for step in game.steps:
        player.step(step)
    last = game.steps[-1]
    assert last.what == "outcome" and last.text.startswith("won") is game.outcome.won
    return list(game.steps)


def test_logged_games_replay_line_by_line() -> None:
    kinds: Counter[str] = Counter()
    rulings: set[str] = set()
    for base in PROFILES:
        for seed in SEEDS:
            steps = replay(profile(base), seed)
            kinds.update(s.what for s in steps)
            rulings.update(s.ruling for s in steps)
    # Enough games that the replay meets every kind of line but the rare "exhausted" (a
    # check begun on an empty pile, which only INDEFATIGABLE's rescue allows).
    assert set(kinds) == {
        "character", "shuffle", "room", "obstacle", "decision", "check", "challenge",
        "setback", "burn", "refresh", "drink", "loot", "felled", "passed", "rest",
        "rest-lost", "outcome",
    }, kinds
    assert {"TC-01", "TC-04", "TC-09", "TC-10", "TC-19", "TC-21", "TC-25"} <= rulings


def test_every_line_has_its_dice_and_state() -> None:
    steps = replay(profile("balanced"), "int:3")
    for step in steps:
        if step.what not in {"character", "shuffle", "room", "rest", "drink", "refresh"}:
            assert not step.dice, step  # only these draw from a stream
        assert step.ruling == "" or re.fullmatch(r"TC-\d\d", step.ruling)
    json = FAMILY.play(data(), profile("balanced"), "int:3", 8).to_json()
    assert json["outcome"]["won"] is steps[-1].text.startswith("won")
