"""Card fronts laid out one under the other on a single tall page, then cut onto pages of
their own.

WeasyPrint spends about 6 ms on every page it lays out before any of its content (the page's
styles and its sixteen margin boxes), a fifth of an ordinary card's layout.  So the fronts of
a batch share one page as tall as all of them could need (:mod:`generator.products.cards.pieces`),
and each front worth keeping is then moved onto a page of its own: exactly the page it would
have had if it had been laid out alone, so the sheets place it as before.

This works on WeasyPrint's laid-out boxes, which its public API does not offer: they are
reached through generator/render/weasyprint_internals.py, the version is pinned
(constraints.txt), and the tests compare cut pages with pages laid out alone.
"""

from __future__ import annotations

from typing import Any

from generator.render import weasyprint_internals


def cut_out(page: Any, face: Any, height: float) -> Any:
    """A page ``height`` px tall holding only ``face``, one of the boxes laid out on ``page``,
    at the top of its content box.

    ``face`` is moved, so ``page`` must not be drawn afterwards.
    """
    tall = weasyprint_internals.page_box(page)
    root = tall.children[0]  # the <html> box; margin boxes follow it, all empty here
    body = root.children[0]
    top = tall.content_box_y()
    face.translate(0, top - face.position_y)
    box = tall.copy()
    box.height = height - (box.margin_height() - box.height)
    root = root.copy_with_children([body.copy_with_children([face])])
    root.height = box.height
    box.children = (root,)
    # Backgrounds (the rows of a table) were placed where the face was laid out.
    weasyprint_internals.place_backgrounds(box)
    return weasyprint_internals.page_of(box)
