"""``check`` given anything: a booklet with any part replaced by any JSON, or JSON of
any shape, gives findings, never a traceback; and jsonschema-rs, which ``check`` validates
with, agrees with the reference validator, jsonschema, on every one."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from generator.engine.booklet import SHARED_SCHEMA, check_document, schema_findings
from generator.engine.family import Family, family_of
from generator.model.loader import Content
from tests.content import RULESETS
from tests.products.booklet.support import booklet, edited

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**6) | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=4),
    max_leaves=12,
)


def _agree(document: object, family: Family[Any]) -> None:
    """jsonschema-rs and jsonschema find the same document valid, or both invalid."""
    reference = Draft202012Validator({"allOf": [SHARED_SCHEMA, family.booklet_schema()]})
    assert (schema_findings(document, family) == []) == reference.is_valid(document)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` a part can be replaced."""
    if isinstance(value, dict):
        items: list[tuple[Any, Any]] = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return [path]
    return [path] * bool(path) + [p for k, v in items for p in _paths(v, (*path, k))]


def _replaced(document: dict[str, Any], path: tuple[Any, ...], new: Any) -> dict[str, Any]:
    copy = edited(document)
    parent = copy
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = new
    return copy


@pytest.fixture(scope="module")
def booklets(content: Content) -> dict[str, tuple[dict[str, Any], list[tuple[Any, ...]]]]:
    made = {r: booklet(content, r, "11", depth=2) for r in RULESETS}
    return {r: (d, _paths(d)) for r, d in made.items()}


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_booklet_with_any_part_replaced_gives_findings(
        content: Content, booklets: dict[str, tuple[dict[str, Any], list[tuple[Any, ...]]]],
        data: st.DataObject) -> None:
    ruleset_id = data.draw(st.sampled_from(RULESETS))
    document, paths = booklets[ruleset_id]
    path = data.draw(st.sampled_from(paths))
    new = data.draw(JSON)
    tampered = _replaced(document, path, new)
    ruleset = content.ruleset(ruleset_id)
    found = check_document(tampered, ruleset, family_of(ruleset))
    assert found or tampered == document
    _agree(tampered, family_of(ruleset))


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.dictionaries(st.text(max_size=12), JSON, max_size=8))
def test_json_of_any_shape_breaks_the_schema(content: Content, shape: dict[str, Any]) -> None:
    ruleset = content.ruleset("inverted-tower")
    document = {"schema": 1, "ruleset": ruleset.id, **shape}
    found = check_document(document, ruleset, family_of(ruleset))
    assert found and {f.code for f in found} == {"schema"}
    _agree(document, family_of(ruleset))
