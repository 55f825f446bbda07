"""The reference player: the choices a sensible player of The Inverted Tower makes.

The rules leave these to the player; the simulator and the exact odds both use this
policy, and the fast simulator (``fast.py``) re-implements exactly the same choices
(a test plays both on the same dice). The choices, and why:

* **Starting attribute** (IT-29): the point goes where it helps most. Combat adds the
  highest attribute, and the three trap kinds are equally likely, so every attribute
  helps the same; the first one in the data takes it. Level-up points go to the highest
  attribute too, since combat, not traps, is what kills.
* **Daggers** (IT-09, IT-10): spent only when they turn a miss into a hit, after seeing
  the die (Faithful), as many as that die needs. When daggers must be declared before
  the roll (IT-10 Alt), they are declared only when a miss would cost the last hit
  points, and then as many as give the best chance.
* **Potions** (IT-10, IT-11): drunk just before a roll that could kill (HP no more than
  one failure's damage). Between rooms only (IT-10 Alt): drunk when HP is at most
  :attr:`Policy.drink_between_rooms_at`. When a potion is drunk by itself at 0 HP
  (IT-11 Alt), the player never drinks early.
* **Merchant** (IT-21): buys potions with all the gold, up to
  :attr:`Policy.potion_stock`, then daggers. A potion restores several hit points, a
  dagger saves one. When the merchant only buys (IT-21 Alt), the player sells nothing:
  gold has no other use (IT-33).
* **Bonfire** (IT-22, IT-23): when :attr:`Policy.rest_missing` or more HP are missing,
  the player walks back to a known bonfire if that takes at most
  :attr:`Policy.trip_checks` wandering checks. A revisit risks one check (a third of a
  chance of an encounter) where a new room is two thirds an encounter or a trap, and the
  fire heals after any fight on arrival. The same walk serves the merchant when there
  is gold to spend.
* **Stairs** (IT-26): the player descends as soon as the stairs are known and the boss
  does not have to be beaten first. Exploring on for XP and treasure does not pay: the
  dead-end room holds the boss, an elite with minions, and rulings.md 1.2 measures more
  deaths when exploring to the dead-end than when descending at once.
* **The boss** is fought only when it stands in the way: entering its room starts the
  fight (no retreat, IT-17), and the player never seeks it out unless IT-26 Alt requires
  it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from generator.rulesets.inverted_tower.rooms import can_explore
from generator.rulesets.inverted_tower.rules import Rules
from generator.rulesets.inverted_tower.state import FloorState, Hero, RoomKind


class MoveKind(StrEnum):
    EXPLORE = "explore"  # a new room
    BACK = "back"  # to a room already in the log (wandering checks, IT-22/23)
    DESCEND = "descend"  # down the stairs of the room the character stands in


@dataclass(frozen=True)
class Move:
    kind: MoveKind
    room: int = 0  # the target of a BACK move


EXPLORE = Move(MoveKind.EXPLORE)
DESCEND = Move(MoveKind.DESCEND)


def wandering_checks(rules: Rules, here: int, there: int) -> int:
    """Checks a walk from room ``here`` to room ``there`` costs (IT-23)."""
    return abs(here - there) if rules.wandering_per_room else 1


def may_descend(rules: Rules, fs: FloorState) -> bool:
    """IT-26: the boss must fall first only under Alt, and only if one can still appear."""
    if not fs.stairs_found:
        return False
    return not rules.boss_always or fs.boss_room > 0 or not can_explore(rules, fs)


@dataclass(frozen=True)
class Policy:
    """The reference player's thresholds; see the module docstring for the reasons."""

    rest_missing: int = 2
    trip_checks: int = 2
    potion_stock: int = 3
    drink_between_rooms_at: int = 2

    # -- the character ----------------------------------------------------------------------

    def starting_attribute(self, rules: Rules) -> int:
        return 0

    def level_up_attribute(self, rules: Rules, hero: Hero) -> int:
        return hero.best

    def fight_attribute(self, rules: Rules, hero: Hero) -> int:
        """IT-29: the attribute added to a roll (or, under Alt, to the whole fight)."""
        return hero.best

    # -- items ----------------------------------------------------------------------------

    def drink_before_roll(self, rules: Rules, hero: Hero, damage: int) -> bool:
        """IT-10 Faithful: drink when the coming roll could kill (never under IT-11 Alt)."""
        return (hero.potions > 0 and hero.hp <= damage and not rules.last_gasp
                and not rules.potions_between_rooms_only)

    def drink_between_rooms(self, rules: Rules, hero: Hero) -> bool:
        """IT-10 Alt: potions only between rooms."""
        return (hero.potions > 0 and rules.potions_between_rooms_only and not rules.last_gasp
                and hero.hp <= self.drink_between_rooms_at and hero.hp < hero.max_hp)

    def spend_daggers(self, rules: Rules, hero: Hero, needed: int) -> bool:
        """IT-10 Faithful: the die is known; spend when the daggers turn it into a hit."""
        return 0 < needed <= hero.daggers

    def declare_daggers(self, rules: Rules, hero: Hero, need: tuple[int, ...],
                        damage: int) -> int:
        """IT-10 Alt: daggers before the die; only when a miss costs the last HP."""
        if hero.hp > damage or hero.daggers == 0:
            return 0
        best, best_hits = 0, sum(1 for n in need[1:] if n == 0)
        for k in range(1, hero.daggers + 1):
            hits = sum(1 for n in need[1:] if n <= k)
            if hits > best_hits:
                best, best_hits = k, hits
        return best

    def shopping(self, rules: Rules, hero: Hero) -> tuple[int, int]:
        """Potions, then daggers, to buy with the hero's gold (IT-21 Faithful)."""
        if not rules.merchant_sells:
            return (0, 0)
        gold, potions, daggers = hero.gold, 0, 0
        p_price, d_price = rules.potion_price, rules.dagger_price
        while True:
            if (p_price is not None and gold >= p_price
                    and hero.potions + potions < self.potion_stock):
                gold -= p_price
                potions += 1
            elif d_price is not None and gold >= d_price and (
                    p_price is None or hero.potions + potions >= self.potion_stock
                    or gold < p_price):
                gold -= d_price
                daggers += 1
            else:
                return (potions, daggers)

    # -- moving ---------------------------------------------------------------------------

    def next_move(self, rules: Rules, hero: Hero, fs: FloorState) -> Move:
        """Where to go after a room: heal, shop, descend or explore, in that order."""
        here = fs.position
        if rules.events_reusable:
            bonfire = fs.room_of(RoomKind.BONFIRE)
            if (bonfire and bonfire != here and hero.max_hp - hero.hp >= self.rest_missing
                    and wandering_checks(rules, here, bonfire) <= self.trip_checks):
                return Move(MoveKind.BACK, bonfire)
            merchant = fs.room_of(RoomKind.MERCHANT)
            if (merchant and merchant != here and self.shopping(rules, hero) != (0, 0)
                    and wandering_checks(rules, here, merchant) <= self.trip_checks):
                return Move(MoveKind.BACK, merchant)
        if may_descend(rules, fs):
            return DESCEND if here == fs.stairs_room else Move(MoveKind.BACK, fs.stairs_room)
        if can_explore(rules, fs):
            return EXPLORE
        # No new room and no stairs cannot happen: the last room is forced to the stairs.
        raise AssertionError(f"stuck on floor {fs.floor}")  # pragma: no cover


REFERENCE = Policy()
