"""A real browser renders the published pages: headless Chromium opens ``tables/index.html``
and a PAR sheet from the files, and the page text holds every bet's name and exact house
edge, and no resource fails to load (every one is inline).

Three checks of "nothing failed to load": the page as published logs nothing on the
browser console (it has no script, so any console line is a blocked or failed load); a
probe copy (the same page with a script the test adds, allowed by its policy) finds every
image decoded, no resource fetched and no policy violation; and the same probe on a page
with a planted external image catches it, so the checks can fail.

Chromium is the Debian package ``chromium``; ``make test`` installs it where it can, and
without it these tests are skipped, saying so. ``make screenshot`` writes
``docs/par-sheet-first-page.png`` with the same browser and flags.
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from analyzer.choice.headsup.solver import solve
from analyzer.engine.odds import odds
from analyzer.present.report.common import fraction_text, percent
from analyzer.rules.profile import shipped_profiles
from analyzer.rules.shoe import Shoe

TABLES = Path(__file__).resolve().parent.parent.parent / "tables"
SHEET = TABLES / "par" / "nine-and-nines-8-decks.html"
#: A game of choices' sheet: its equilibrium, outcomes and strategy cards.
CHOICE_SHEET = TABLES / "par" / "lucky9-home-1-deck.html"
BROWSER = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                if (found := shutil.which(name))), None)
#: Flags that run headless Chromium in a container, offline and without a profile's state.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--enable-logging=stderr", "--v=0",
         "--virtual-time-budget=5000"]

pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="headless Chromium is not installed (Debian: apt-get install "
                            "chromium; `make test` installs it where it can)")

#: Added after the page's policy: reports violations, and after load writes what loaded.
PROBE_HEAD = ("<script>window.__blocked = []; document.addEventListener("
              "'securitypolicyviolation', e => window.__blocked.push(e.blockedURI));</script>")
PROBE_BODY = (
    "<script>window.addEventListener('load', () => { const report = {"
    "fetched: performance.getEntriesByType('resource').map(e => e.name),"
    "images: [...document.images].map(i => [i.complete, i.naturalWidth]),"
    "sheets: document.styleSheets.length, blocked: window.__blocked};"
    "const out = document.createElement('pre'); out.id = 'probe';"
    "out.textContent = JSON.stringify(report); document.body.append(out); });</script>")


class _Text(HTMLParser):
    """The text a reader sees (no head, style or script)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("head", "style", "script")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("head", "style", "script")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _render(page: Path, workdir: Path, *extra: str) -> tuple[str, str]:
    """Chromium's DOM after load (``--dump-dom``, or ``extra`` flags) and its log."""
    assert BROWSER is not None
    done = subprocess.run([BROWSER, *FLAGS, f"--user-data-dir={workdir / 'profile'}",
                           *(extra or ("--dump-dom",)), page.resolve().as_uri()],
                          capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout, done.stderr


def _console(log: str) -> list[str]:
    return [line for line in log.splitlines() if ":CONSOLE" in line]


def _probe(page: Path, workdir: Path, plant: str = "") -> dict[str, object]:
    """Load a copy of ``page`` with the probe (and ``plant`` HTML) and read its report."""
    html = page.read_text(encoding="utf-8")
    policy = "default-src 'none';"
    assert html.count(policy) == 1, "the page must forbid every load but its own"
    html = html.replace(policy, f"{policy} script-src 'unsafe-inline';")
    html = html.replace("</title>", "</title>" + PROBE_HEAD, 1)
    html = html.replace("</main>", plant + "</main>" + PROBE_BODY, 1)
    workdir.mkdir(parents=True, exist_ok=True)
    copy = workdir / page.name
    copy.write_text(html, encoding="utf-8")
    dom, _ = _render(copy, workdir)
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.DOTALL)
    assert found, "the probe did not run"
    report: dict[str, object] = json.loads(found.group(1).replace("&quot;", '"'))
    return report


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, str]]:
    """The DOM and browser log of the index and the PAR sheet, rendered once."""
    return {page.name: _render(page, tmp_path_factory.mktemp("render"))
            for page in (TABLES / "index.html", SHEET, CHOICE_SHEET)}


def _text(dom: str) -> str:
    parser = _Text()
    parser.feed(dom)
    return re.sub(r"\s+", " ", "".join(parser.parts))


@pytest.mark.parametrize("page", [TABLES / "index.html", SHEET, CHOICE_SHEET],
                         ids=["index", "par-sheet", "choice-par-sheet"])
def test_a_page_loads_nothing_from_outside(page: Path, tmp_path: Path,
                                           rendered: dict[str, tuple[str, str]]) -> None:
    dom, log = rendered[page.name]
    assert "<main>" in dom
    assert _console(log) == []  # no blocked or failed load was reported
    report = _probe(page, tmp_path / "probe")
    assert report["fetched"] == [] and report["blocked"] == []
    assert report["sheets"] == 1  # the inline style sheet, applied
    assert all(done and width > 0 for done, width in report["images"])  # type: ignore[attr-defined]


def test_the_probe_catches_an_outside_resource(tmp_path: Path) -> None:
    report = _probe(SHEET, tmp_path, '<img alt="x" src="https://example.invalid/x.png">')
    assert report["blocked"] == ["https://example.invalid/x.png"]
    assert [done_width for done_width in report["images"]  # type: ignore[attr-defined]
            if done_width[1] == 0]


def test_the_par_sheet_shows_every_bet_and_its_exact_edge(
        rendered: dict[str, tuple[str, str]]) -> None:
    text = _text(rendered[SHEET.name][0])
    table = odds("nine-and-nines", Shoe.decks(8))
    assert "PAR sheet: Baccarat with NINE & NINES, 8 decks" in text
    for bet in table.bets:
        assert bet.name in text
        assert fraction_text(bet.house_edge) in text and percent(bet.house_edge) in text
    assert "2,292,252,566,437,888" in text and "ILLUSTRATIVE." in text


def test_the_choice_sheet_shows_the_equilibrium_and_the_cards(
        rendered: dict[str, tuple[str, str]]) -> None:
    text = _text(rendered[CHOICE_SHEET.name][0])
    result = solve("lucky9-home", Shoe.decks(1), "cards")
    assert "PAR sheet: Home Lucky 9 (players and banker choose), 1 deck" in text
    assert fraction_text(-result.value) in text and percent(-result.value) in text
    assert "Player card" in text and "Banker card" in text and "draw 863/1200" in text


def test_the_index_shows_every_bet_and_its_exact_edge(
        rendered: dict[str, tuple[str, str]]) -> None:
    dom = rendered["index.html"][0]
    text = _text(dom)
    for profile in shipped_profiles():
        if profile.tableau is None:
            continue
        table = odds(profile, Shoe.decks(profile.default_decks))
        for bet in table.bets:
            assert bet.name in text and fraction_text(bet.house_edge) in text, bet.name
        assert f'href="par/{profile.name}-8-decks.html"' in dom
    assert 'href="par/lucky9-home-1-deck.html"' in dom
    assert 'href="par/chemin-de-fer-6-decks.html"' in dom


def test_a_screenshot_of_the_first_page(tmp_path: Path) -> None:
    target = tmp_path / "first-page.png"
    _render(SHEET, tmp_path, f"--screenshot={target}", "--window-size=1240,1754")
    data = target.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert struct.unpack(">II", data[16:24]) == (1240, 1754)
    assert len(data) > 50_000  # text and tables, not a blank page
