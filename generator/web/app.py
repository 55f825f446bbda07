"""The pages of ``towerpress serve``: a page a product with its command's options and a
preview, a page a ruleset with its profiles side by side, and the files rendered.

Nothing a request names reaches the file system: a product, a ruleset or a static file is
looked up among the ones this program has, a render's file among the names that render
wrote, by the hash of its inputs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from markupsafe import Markup
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from generator import __version__
from generator.model.loader import Content
from generator.render.fonts import SANS, SERIF, Face, faces
from generator.render.templating import TEMPLATES, environment
from generator.web.forms import FORMS, Form, FormError, arguments, check, fields
from generator.web.jobs import Busy, Job, Jobs
from generator.web.renders import Outcome, ruleset_page

STATIC = {"web.css": "text/css", "web.js": "text/javascript"}
_KEY = re.compile(r"[0-9a-f]{32}")
PRESETS: Mapping[str, Mapping[str, str]] = {"booklet": {"seed": "1234"}}  # the README's
#: What each kind of file is, on its download button.
FILE_KINDS = (("-saddle.pdf", "PDF imposed for folding"), (".pdf", "PDF"),
              (".json", "JSON"), (".html", "HTML, for a phone"))
#: The booklet's HTML page runs its own script, inline: its own policy, no network either.
SCREEN_POLICY = ("default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; "
                 "script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")


@dataclass(frozen=True)
class Site:
    """What every page reads: the content, its folder as given (None: the bundled one) and
    the renders."""

    content: Content
    content_dir: str | None
    jobs: Jobs


def create_app(site: Site) -> Starlette:
    """The application; :mod:`generator.web.serve` puts the guard before it."""
    async def index(request: Request) -> Response:
        return _page("web/index.html", rulesets=list(site.content.rulesets.values()))

    async def product_page(request: Request) -> Response:
        return _product(site, _form(request), request, as_json=False)

    async def render(request: Request) -> Response:
        return _product(site, _form(request), request, as_json=True)

    async def ruleset(request: Request) -> Response:
        chosen = site.content.rulesets.get(request.path_params["ruleset"])
        if chosen is None:
            return _page("web/missing.html", status=404, busy="")
        try:
            job = site.jobs.submit(site.jobs.key("ruleset", chosen.id), ruleset_page,
                                   (site.content_dir, chosen.id))
        except Busy as exc:
            return _page("web/missing.html", status=503, busy=str(exc))
        return _page("web/ruleset.html", ruleset=chosen, job=job, done=_done(site, job))

    async def status(request: Request) -> Response:
        job = _job(site, request.path_params["key"])
        if job is None:
            return JSONResponse({"state": "missing"}, status_code=404)
        failed = 400 if _refused(job) else 500
        return JSONResponse(_status(site, job), status_code=failed if job.state == "failed"
                            else 200)

    async def download(request: Request) -> Response:
        job = _job(site, request.path_params["key"])
        name = request.path_params["name"]
        if job is None or name not in _names(job):
            return Response("towerpress: error: no such file\n", 404, media_type="text/plain")
        return _file(job, name)

    async def font(request: Request) -> Response:
        face = _fonts().get(request.path_params["name"])
        if face is None:
            return Response("towerpress: error: no such font\n", 404, media_type="text/plain")
        return FileResponse(face.file, media_type="font/ttf")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("towerpress: error: no such file\n", 404, media_type="text/plain")
        return FileResponse(TEMPLATES / "web" / name, media_type=STATIC[name])

    routes = [Route("/", index), Route("/static/{name}", static), Route("/fonts/{name}", font),
              Route("/rulesets/{ruleset}", ruleset), Route("/jobs/{key}", status),
              Route("/jobs/{key}/{name}", download)]
    for product in FORMS:
        routes += [Route(f"/{product}", product_page), Route(f"/render/{product}", render)]
    return Starlette(routes=routes)


def _form(request: Request) -> Form:
    return FORMS[request.url.path.rsplit("/", 1)[-1]]


def _product(site: Site, form: Form, request: Request, *, as_json: bool) -> Response:
    """A product's page (or, ``as_json``, its render's status) for the request's options:
    the render is queued, or the command line's line saying what is wrong (HTTP 400)."""
    values = {**PRESETS.get(form.product, {}), **request.query_params}
    chosen = site.content.rulesets.get(values.get("ruleset", ""))
    ruleset = chosen or next(iter(site.content.rulesets.values()))
    job, error, code = None, "", 200
    try:
        argv = arguments(form, values.get("ruleset") or ruleset.id, values)
        check(form, site.content, argv)
        job = site.jobs.product(form.product, argv, site.content_dir)
    except FormError as exc:
        error, code = exc.line, 400
    except Busy as exc:
        error, code = str(exc), 503
    if job is not None and job.state == "failed":
        error, code = _failure(job), 400 if _refused(job) else 500
    if as_json:
        return JSONResponse(_status(site, job) if job and not error else
                            {"state": "failed", "error": error}, status_code=code)
    return _page("web/product.html", status=code, form=form, ruleset=ruleset,
                 rulesets=list(site.content.rulesets.values()), error=error, job=job,
                 fields=fields(form, ruleset, values), done=_done(site, job))


def _job(site: Site, key: str) -> Job | None:
    return site.jobs.kept.get(key) if _KEY.fullmatch(key) else None


def _refused(job: Job) -> bool:
    """Whether the command refused the job's options (its exit code 2)."""
    return isinstance(job.result, Outcome) and job.result.code == 2


def _failure(job: Job) -> str:
    if isinstance(job.result, Outcome) and job.result.lines:
        return job.result.lines[0]
    return job.error


def _status(site: Site, job: Job) -> dict[str, Any]:
    """A render's state as the page's script reads it; once done, the part of the page that
    shows it, rendered here."""
    body: dict[str, Any] = {"state": job.state, "url": f"/jobs/{job.key}",
                            "ahead": site.jobs.ahead(job), "seconds": round(job.seconds(), 1)}
    if job.state == "failed":
        body["error"] = _failure(job)
    elif job.state == "done":
        body["html"] = _done(site, job)
    return body


def _done(site: Site, job: Job | None) -> str:
    """The finished render's part of its page (previews, downloads, odds), or ""."""
    if job is None or job.state != "done":
        return ""
    if isinstance(job.result, Outcome):
        return environment().get_template("web/result.html").render(
            job=job, outcome=job.result, files=_downloads(job))
    return environment().get_template("web/profiles.html").render(view=job.result)


def _names(job: Job) -> set[str]:
    if job.state != "done" or not isinstance(job.result, Outcome):
        return set()
    outcome = job.result
    return ({_flat(name) for name in outcome.files}
            | {f"preview-{n}.png" for n in range(1, outcome.previews + 1)})


def _flat(name: str) -> str:
    return name.rsplit("/", 1)[-1]


def _downloads(job: Job) -> list[tuple[str, str, str]]:
    """(URL, label, file name) of each file the render wrote."""
    assert isinstance(job.result, Outcome)
    rows = []
    for name in job.result.files:
        flat = _flat(name)
        label = next(text for suffix, text in FILE_KINDS if flat.endswith(suffix))
        rows.append((f"/jobs/{job.key}/{flat}", label, flat))
    return rows


def _file(job: Job, name: str) -> Response:
    assert isinstance(job.result, Outcome)
    if name.startswith("preview-"):
        return FileResponse(job.folder / name, media_type="image/png")
    path = job.folder / next(n for n in job.result.files if _flat(n) == name)
    if name.endswith(".html"):
        return FileResponse(path, media_type="text/html; charset=utf-8",
                            headers={"content-security-policy": SCREEN_POLICY})
    kind = "application/pdf" if name.endswith(".pdf") else "application/json"
    return FileResponse(path, media_type=kind, filename=name)


@cache
def _fonts() -> dict[str, Face]:
    """The printed products' faces, by file name: the pages are set in them too."""
    return {face.file.name: face for face in faces()}


@cache
def _font_css() -> Markup:
    return Markup("\n".join(
        f"@font-face {{ font-family: {face.family}; src: url(/fonts/{face.file.name}); "
        f"font-weight: {face.weight}; font-style: {'italic' if face.italic else 'normal'}; "
        "font-display: swap; }" for face in _fonts().values()))


def _page(template: str, status: int = 200, **context: Any) -> HTMLResponse:
    html = environment().get_template(template).render(
        version=__version__, products=FORMS, font_faces=_font_css(), serif=SERIF, sans=SANS,
        **context)
    return HTMLResponse(html, status_code=status)

