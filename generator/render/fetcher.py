"""A URL fetcher that serves only the project's own folders (design.md section 8).

Content may come from a user.  Rendering it must never read a file outside the
templates, the content folder and the font packages, and never reach the network.
Every other reference is refused, and the refusal stops the render with an error
naming the reference.
"""

from __future__ import annotations

import mimetypes
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

from generator.render.folders import path_is_inside
from generator.render.pictures import SCHEME, SVG_MIME, served_picture


class RefusedReference(FatalURLFetchingError):  # type: ignore[misc]
    """A reference the fetcher will not serve; it stops the render."""

    def __init__(self, url: str, reason: str):
        super().__init__(f"refused reference {url!r}: {reason}")
        self.url = url
        self.reason = reason


class SafeFetcher(URLFetcher):  # type: ignore[misc]
    """Serves ``file:`` URLs inside ``roots``, ``data:`` URLs, and ``picture:NAME`` for
    each SVG of ``pictures`` (drawn by the product: a picture used a thousand times is
    then one short URL in the HTML, parsed once) and for each picture of the prose, named
    by its bytes (:func:`generator.render.pictures.picture_url`) and served from its file
    inside ``roots`` while that still holds them; refuses the rest."""

    def __init__(self, roots: Iterable[Path], pictures: Mapping[str, str] | None = None):
        super().__init__(allowed_protocols=("file", "data"), fail_on_errors=True)
        self.roots = tuple(Path(r).resolve() for r in roots)
        # The picture the prose names by its bytes (a file the user knows) for each URL
        # served under such a name, for a message about it.
        self.served: dict[str, Path] = {}
        self.pictures = dict(pictures or {})
        # Every refusal, kept: WeasyPrint swallows those made for a picture inside an SVG,
        # and the render must still fail on them.
        self.refused: list[RefusedReference] = []

    def fetch(self, url: str, headers: object = None) -> URLFetcherResponse:
        try:
            return self._fetch(url, headers)
        except RefusedReference as exc:
            self.refused.append(exc)
            raise

    def _fetch(self, url: str, headers: object) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme == "data":
            return super().fetch(url, headers)
        if parts.scheme == SCHEME:
            if parts.path in self.pictures:
                return URLFetcherResponse(url, body=self.pictures[parts.path].encode("utf-8"),
                                          headers={"Content-Type": SVG_MIME})
            served = served_picture(parts.path, self.roots)
            if served is None:
                raise RefusedReference(url, "no such picture, or its file changed since it "
                                            "was checked")
            body, mime, self.served[url] = served
            return URLFetcherResponse(url, body=body, headers={"Content-Type": mime})
        if parts.scheme != "file":
            raise RefusedReference(url, "only files of the project's own folders may be used")
        # resolve() follows symlinks and '..', so neither can escape the roots.
        path = Path(unquote(parts.path)).resolve()
        if not path_is_inside(path, self.roots):
            raise RefusedReference(url, "it is outside the templates, content and font folders")
        if not path.is_file():
            raise RefusedReference(url, "no such file")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, body=path.read_bytes(), headers={"Content-Type": mime})
