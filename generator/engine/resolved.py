"""Rules resolved once: a family's rules object for a profile, built once per data object
and set of readings (style.md: decide once, pass it in)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from generator.model.common import Profile

D = TypeVar("D")
R = TypeVar("R")

Key = tuple[int, str, tuple[tuple[str, str], ...]]


def once_per_readings(build: Callable[[D, Profile], R]) -> Callable[[D, Profile], R]:
    """``build``, cached per data object and set of readings.

    One rules object each, so that what is cached by a rules object (odds, policies) is
    shared by every game played under it.  The cache keeps each data object alive, so an
    ``id`` is never reused for another while its entry stands.
    """
    cache: dict[Key, tuple[D, R]] = {}

    @wraps(build)
    def resolved(data: D, profile: Profile) -> R:
        key = (id(data), profile.id, tuple(sorted(profile.readings.items())))
        found = cache.get(key)
        if found is None:
            found = cache[key] = (data, build(data, profile))
        return found[1]

    return resolved
