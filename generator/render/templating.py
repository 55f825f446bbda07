"""The Jinja environment (autoescaping, StrictUndefined, the project's templates only), and
the one way our templates are rendered: :func:`render_template`."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from generator.render.capitals import is_label, is_name, keep_capitals
from generator.render.svg import dice_faces, die_face
from generator.render.typography import tie_runt, tie_title, typeset

# Re-exported: the renderers name the templates' folder through this module.
from generator.resources import TEMPLATES as TEMPLATES


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,  # a blank cell on a printed page is a silent bug
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["dice"] = dice_faces
    env.filters["caps"] = keep_capitals
    env.filters["tie_runt"] = tie_runt
    env.filters["tie_title"] = tie_title
    env.tests["name"] = is_name
    env.tests["label"] = is_label
    env.globals["die_face"] = die_face
    env.globals["stylesheet"] = lambda name: _stylesheet(env, name)
    return env


def _stylesheet(env: Environment, name: str) -> Markup:
    """One of our stylesheets, for a ``<style>`` element: the HTML then stands alone, so a
    rulebook's HTML previews in a browser wherever it is saved.  The loader only reads
    inside the templates folder."""
    assert env.loader is not None
    source, _, _ = env.loader.get_source(env, name)
    return Markup(source)


def render_template(name: str, context: Mapping[str, object]) -> str:
    """The HTML of one of our templates, typeset (:func:`generator.render.typography.typeset`).

    ``context`` is the product's typed context for that template (a ``TypedDict``): every
    name the template reads is one of its keys (StrictUndefined fails on any other).
    """
    return typeset(environment().get_template(name).render(context))
