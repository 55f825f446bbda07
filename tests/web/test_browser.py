"""``towerpress serve`` in a real browser (Debian's Chromium, driven by Playwright), as a
person uses it: each product's page, its preview changing with an option, its PDF
downloaded and read; a bad seed; a booklet rolled and its odds; the booklet's HTML on a
phone.  Each page is also saved as a screenshot at 1280 and 390 px wide, in
build/screenshots/, to be looked at."""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest

from generator.model.loader import Content
from tests.commands import ROOT, run_here
from tests.web.server import Server, serving

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "build" / "screenshots"
WAIT_MS = 180_000  # a render, on a machine busy with the other tests
# As the browser must run here: no sandbox as root, and none of its own network traffic.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-default-apps"]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists() and not os.environ.get("CI"),
    reason=f"{CHROMIUM} is not installed (make test installs it as root: apt-get install "
           "chromium)")

POINTS = {"a4": (595, 842), "letter": (612, 792), "a5": (420, 595)}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving(tmp_path_factory.mktemp("serve-tmp")) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # Without the renderer's fontconfig (generator/render/__init__.py names one with no
        # fonts of the host, for the PDFs): Chromium aborts on it at its first page.
        env: dict[str, str | float | bool] = {
            k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"}
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS,
                                              env=env)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900},
                                  accept_downloads=True)
    context.set_default_timeout(WAIT_MS)
    opened = context.new_page()
    yield opened
    context.close()


def shoot(page: Any, name: str) -> None:
    """The page at a desktop's width and a phone's, whole, into build/screenshots/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def preview(page: Any) -> str:
    page.wait_for_selector(".previews img")
    return str(page.get_attribute(".previews img", "src"))


def download(page: Any, selector: str) -> bytes:
    with page.expect_download() as event:
        page.click(selector)
    return Path(event.value.path()).read_bytes()


# (product, ruleset, the option changed and its new value): every product, every ruleset.
PRODUCTS = [
    ("sheet", "inverted-tower", "paper", "letter"),
    ("log", "three-dice-dungeon", "paper", "a5"),
    ("cards", "inverted-tower", "paper", "letter"),
    ("rulebook", "tower-of-choices", "paper", "a5"),
]


@pytest.mark.parametrize(("product", "ruleset", "option", "value"), PRODUCTS)
def test_a_product_page_previews_the_pages_and_downloads_the_pdf(
        server: Server, page: Any, product: str, ruleset: str, option: str, value: str
        ) -> None:
    page.goto(f"{server.url}/{product}?ruleset={ruleset}")
    first = preview(page)
    page.select_option(f"select[name={option}]", value)
    page.wait_for_function("(src) => { const img = document.querySelector('.previews img');"
                           " return img && img.getAttribute('src') !== src; }", arg=first)
    assert f"{option}={value}" in page.url  # the address keeps the options, to come back
    shown = page.text_content(".downloads .primary")
    pdf = pypdf.PdfReader(io.BytesIO(download(page, ".downloads .primary")))
    assert f"({len(pdf.pages)} page" in str(shown)
    box = pdf.pages[0].mediabox
    width, height = POINTS[value]
    assert {round(float(box.width)), round(float(box.height))} == {width, height}
    shoot(page, product)


def test_a_bad_seed_gets_the_command_lines_message(server: Server, page: Any) -> None:
    seed = "7" * 201
    said = run_here("booklet", "inverted-tower", "--seed", seed).stderr.strip()
    response = page.goto(f"{server.url}/booklet?ruleset=inverted-tower&seed={seed}")
    assert response.status == 400
    assert page.text_content(".error") == said
    page.fill("input[name=seed]", "")
    page.press("input[name=seed]", "Enter")
    page.wait_for_function("document.querySelector('.error').textContent.includes('--seed')")
    assert page.is_visible(".error") and not page.is_visible(".previews")
    shoot(page, "booklet-bad-seed")


def test_a_rolled_booklet_shows_its_odds_and_prints_its_seed(server: Server, page: Any
                                                             ) -> None:
    page.goto(f"{server.url}/booklet?ruleset=three-dice-dungeon&depth=1&odds_runs=60")
    before = page.input_value("input[name=seed]")
    page.click("[data-roll=seed]")
    seed = page.input_value("input[name=seed]")
    assert seed != before and seed.isdecimal()
    page.wait_for_function(f"location.search.includes('seed={seed}')")
    page.wait_for_selector(".odds svg")
    assert "win" in str(page.get_attribute(".odds svg", "aria-label"))
    pdf = pypdf.PdfReader(io.BytesIO(download(page, ".downloads .primary")))
    assert f"Seed {seed}" in pdf.pages[0].extract_text()
    assert round(float(pdf.pages[0].mediabox.width)) == POINTS["a5"][0]
    document = download(page, "[data-file$='.json']")
    assert f'"seed": "{seed}"'.encode() in document.replace(b'":"', b'": "')
    preview(page)
    shoot(page, "booklet")


def test_the_ruleset_page_sets_its_profiles_side_by_side(server: Server, page: Any,
                                                        content: Content) -> None:
    ruleset = content.ruleset("tower-of-choices")
    page.goto(f"{server.url}/rulesets/{ruleset.id}")
    page.wait_for_selector(".curves")
    assert page.locator(".profile").count() == len(ruleset.profiles)
    assert page.locator("svg.curves polyline").count() == len(ruleset.profiles)
    shoot(page, "ruleset")


def test_the_html_booklet_follows_its_links_and_keeps_the_crossed_tapes(
        page: Any, tmp_path: Path) -> None:
    made = run_here("booklet", "inverted-tower", "--seed", "31", "--odds", "40",
                    "--format", "html", "-o", str(tmp_path))
    assert made.returncode == 0, made.stderr
    html = tmp_path / "inverted-tower-31.html"
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(html.as_uri() + "#s1")
    for _ in range(3):
        link = page.locator("article.section:visible a.turn-to").first
        target = str(link.get_attribute("href"))
        link.click()
        page.wait_for_function(f"location.hash === '{target}'")
        assert page.locator("article.section:visible").count() == 1
        assert page.is_visible(f"article{target}")
    page.goto(html.as_uri() + "#tapes")
    page.locator("#tapes a[href^='#tape-']").first.click()
    box = page.locator("button.tape-box:visible").first
    key = box.get_attribute("data-key")
    assert box.get_attribute("aria-pressed") == "false"
    box.click()
    assert box.get_attribute("aria-pressed") == "true"
    page.reload()
    again = page.locator(f"button.tape-box[data-key='{key}']:visible")
    assert again.get_attribute("aria-pressed") == "true"
    page.goto(html.as_uri() + "#s1")
    shoot(page, "booklet-html")
