"""Property: no corruption of a content file ever produces a traceback."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.errors import ContentError
from generator.model.loader import BUNDLED_CONTENT
from generator.rulesets import load_content

FILES = sorted(
    p.relative_to(BUNDLED_CONTENT)
    for p in BUNDLED_CONTENT.rglob("*")
    if p.suffix in (".toml", ".md")
)

_TEMPLATE = Path(tempfile.mkdtemp(prefix="towerpress-corrupt-")) / "content"
shutil.copytree(BUNDLED_CONTENT, _TEMPLATE)

edits = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 40)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.text(min_size=1, max_size=12)),
    st.tuples(
        st.just("insert"),
        st.integers(0, 10**6),
        st.sampled_from(['"', "=", "[", "]]", "\n[[rows]]\n", "-7", "true", "{", "\x00", "\ufeff"]),
    ),
    st.tuples(st.just("truncate"), st.integers(0, 10**6), st.just(0)),
)


def apply(text: str, edit: tuple[str, int, object]) -> str:
    kind, where, arg = edit
    at = where % (len(text) + 1)
    if kind == "delete":
        assert isinstance(arg, int)
        return text[:at] + text[at + arg :]
    if kind == "insert":
        return text[:at] + str(arg) + text[at:]
    return text[:at]


@settings(
    max_examples=60,  # tests/hostile/test_fuzz.py mutates the files through validate too
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(file=st.sampled_from(FILES), changes=st.lists(edits, min_size=1, max_size=3))
def test_random_corruption_never_raises_anything_but_content_error(
    file: Path, changes: list[tuple[str, int, object]]
) -> None:
    path = _TEMPLATE / file
    original = path.read_bytes()
    try:
        text = original.decode("utf-8")
        for change in changes:
            text = apply(text, change)
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        try:
            load_content(_TEMPLATE)
        except ContentError as exc:
            assert exc.findings
            for finding in exc.findings:
                assert finding.where.startswith("content/"), finding
                assert "\n" not in finding.where
    finally:
        path.write_bytes(original)
