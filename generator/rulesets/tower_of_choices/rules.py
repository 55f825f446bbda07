"""The rules of Tower of Choices resolved for one profile: the lookups and the readings.

:func:`rules_for` reads the typed data (:mod:`.read`) and the profile once and returns a
frozen :class:`Rules`: the lookups the procedures need and one flag per ruling the engine
reads (rulings.md 3.3), so that no other module of the engine looks at the profile again
(style.md 8, "decide once, pass it in").  Every number comes from the data; a flag is True
when the profile takes the ruling's Alt reading.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.engine.resolved import once_per_readings
from generator.model.common import Profile
from generator.rulesets.tower_of_choices.data import TowerOfChoices
from generator.rulesets.tower_of_choices.entities import (
    Ability,
    AbilityEffect,
    AbilityKind,
    Item,
    ItemKind,
    Modifier,
    Setback,
)


@dataclass(frozen=True, eq=False)
class Rules:
    """Every lookup and reading the engine uses, for one (data, profile) pair.

    Hashed by identity (``eq=False``), so that values derived from it can be cached per
    rules object (:func:`.trial.dm_rows`); :func:`rules_for` hands out one object per data
    object and set of readings.
    """

    data: TowerOfChoices
    profile_id: str  # recorded in the trials generated under these rules
    # -- lookups over the data --
    items: dict[str, Item]
    mods: dict[str, dict[str, tuple[Modifier, ...]]]  # item -> skill -> its modifiers
    abilities: dict[str, Ability]
    setbacks: dict[str, Setback]
    challenge: str  # the challenge card's label (checks.toml), a :data:`.state.Card`
    equipment_draw_step: int  # the "Equipment" adjustment row's direction (decided_by item)
    restore_items: frozenset[str]  # items whose effect is restore_discard (energy drink)
    min_deck: int  # the smallest legal starting deck (rulings.md 3.5, invariant 4)
    # -- the readings --
    full_draw_needed: bool  # TC-02 Alt: a check needs DRAW cards in the pile, else exhausted
    exhaustion_ends_trial: bool  # TC-03 Alt: exhaustion ends the trial (carried out)
    stop_early: bool  # TC-04 Alt: a check may stop drawing once it has succeeded
    raised_target_floor: bool  # TC-05 Alt: TARGET floors at target_floor_alt (1), not 0
    wild_cards: bool  # TC-06 Alt: Luck cards match any other approach, at a higher TARGET
    convert_on_success_only: bool  # TC-07 Alt: after a failure a challenge card leaves
    keep_lone_challenge: bool  # TC-08 Alt: a challenge drawn alone goes to discard as is
    distinct_conversions: bool  # TC-09 Alt: challenges copy different cards where they can
    capped_challenges: bool  # TC-10 Alt: at most challenge_max_per_rest_alt per rest
    refresh_on_success_only: bool  # TC-11 Alt: INDEFATIGABLE only after a success, top/bottom
    chosen_burn: bool  # TC-12 Alt: DETERMINATION burns a card the player picks from the pile
    repeated_skills: bool  # TC-14 Alt: a starting skill may be picked more than once
    exact_item_count: bool  # TC-15 Alt: exactly max_starting_items starting items
    kit_pieces_count: bool  # TC-16 Alt: each piece of a kit counts against the carry limit
    # TC-17 Alt, by the ruling a conditional modifier names (the reference book's): those
    # modifiers apply on every check of their skill, not only where the condition holds.
    waived_conditions: frozenset[str]
    wounds_track: bool  # TC-18 Alt: failures mark wounds, and enough put the character out
    floors: bool  # TC-20 Alt: rooms grouped in floors with a rest between, no rest spots
    rest_anywhere: bool  # TC-21 Alt: rest anywhere outside an obstacle, at the room's cost
    failure_passes: bool  # TC-25 Alt: a failed exchange costs its setback, then the way is on

    def ability_effect(self, ability: str, kind: AbilityKind) -> AbilityEffect | None:
        return self.abilities[ability].effect(kind)

    @property
    def target_floor(self) -> int:
        """The lowest TARGET (TC-05): ``target.floor``, or ``target.floor_alt`` under Alt."""
        checks = self.data.checks
        return checks.target_floor_alt if self.raised_target_floor else checks.target_floor

    @property
    def distinct_skills(self) -> bool:
        """Whether the starting skills must differ: the data says so and TC-14 is Faithful."""
        return self.data.character.distinct_starting_skills and not self.repeated_skills


# The flags of checks.toml that describe the one deck economy this engine implements.
_REQUIRED_FLAGS = (
    "drawn_cards_to_discard",
    "exhausted_when_draw_pile_empty",
    "rest_shuffles_discard_with_draw_pile",
    "challenge_added_only_when_resting",
    "challenge_converted_after_draw",
)


def require_economy(data: TowerOfChoices) -> None:
    """Refuse data whose deck economy the engine does not play.

    Kept apart from :func:`rules_for`: the odds of one check and a printed starting deck do
    not depend on these flags, so they work for such data; playing and generating trials
    (:func:`.simulate.simulate`, :func:`.trial.generate_trial`, :func:`.check.check_trial`)
    call this first.

    Raises:
        ValueError: a deck-economy flag of ``checks.toml`` is off: the engine implements
            only the economy that the original describes, and says so instead of ignoring it.
    """
    off = [flag for flag in _REQUIRED_FLAGS if not getattr(data.checks, flag)]
    if off:
        raise ValueError(f"the Tower of Choices engine needs checks flags {', '.join(off)} = true")


def build_rules(data: TowerOfChoices, profile: Profile) -> Rules:
    """Resolve every lookup and reading for ``profile``; every value comes from ``data``."""
    p = profile
    steps = [
        a.direction
        for a in data.checks.adjustments
        if a.decided_by == "item" and a.changes == "draw"
    ]
    decks = [data.starting_deck_size(a) for a in data.abilities]
    conditional = {m.ruling for i in data.items for m in i.modifiers if m.condition and m.ruling}
    return Rules(
        data=data,
        profile_id=p.id,
        items={i.name: i for i in data.items},
        mods={i.name: {s: i.modifiers_for(s) for s in data.skill_names} for i in data.items},
        abilities={a.name: a for a in data.abilities},
        setbacks={s.name: s for s in data.setbacks},
        challenge=data.checks.challenge_label,
        equipment_draw_step=steps[0] if steps else 0,
        restore_items=frozenset(
            i.name for i in data.items if ItemKind.RESTORE_DISCARD in i.effects
        ),
        min_deck=min(decks, default=data.starting_deck_size()),
        full_draw_needed=p.alt("TC-02"),
        exhaustion_ends_trial=p.alt("TC-03"),
        stop_early=p.alt("TC-04"),
        raised_target_floor=p.alt("TC-05"),
        wild_cards=p.alt("TC-06"),
        convert_on_success_only=p.alt("TC-07"),
        keep_lone_challenge=p.alt("TC-08"),
        distinct_conversions=p.alt("TC-09"),
        capped_challenges=p.alt("TC-10"),
        refresh_on_success_only=p.alt("TC-11"),
        chosen_burn=p.alt("TC-12"),
        repeated_skills=p.alt("TC-14"),
        exact_item_count=p.alt("TC-15"),
        kit_pieces_count=p.alt("TC-16"),
        waived_conditions=frozenset(r for r in conditional if p.alt(r)),
        wounds_track=p.alt("TC-18"),
        floors=p.alt("TC-20"),
        rest_anywhere=p.alt("TC-21"),
        failure_passes=p.alt("TC-25"),
    )


#: :func:`build_rules`, once per data object and set of readings.
rules_for = once_per_readings(build_rules)
