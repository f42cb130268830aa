"""The offline advisor page in a real browser: headless Chromium opens the published
``tables/lucky9/advisor.html`` from the file, driven by real input events over the DevTools
protocol (mouse clicks on the buttons, text typed into the cards field), on a phone-sized
screen; what the page answers in 36 situations across 2 to 9 people, seats and the bank,
equals ``nine advise --infinite --format json``.

The protocol runs over a pipe (``--remote-debugging-pipe``: commands on the browser's file
descriptor 3, replies on 4, each a JSON message ended by a NUL byte), so the test needs
nothing beyond the standard library and Chromium; without Chromium it is skipped, saying so.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import subprocess
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from analyzer.choice.table.advice import advise_seat
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.cli.commands import main
from analyzer.present.advisor import advisor_data, render_advisor
from analyzer.present.tables.folder import MANIFEST
from analyzer.present.tables.published import STRATEGIES_FILE, published_strategies
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

PAGE = Path(__file__).resolve().parent.parent.parent / "tables" / "lucky9" / "advisor.html"
BROWSER = next((found for name in ("chromium", "chromium-browser", "google-chrome")
                if (found := shutil.which(name))), None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--remote-debugging-pipe", "--user-data-dir={home}", "about:blank"]
#: A phone screen, CSS pixels.
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True}
needs_browser = pytest.mark.skipif(
    BROWSER is None, reason="headless Chromium is not installed (Debian: apt-get install "
                            "chromium; `make test` installs it where it can)")


class Browser:
    """A headless Chromium page driven over the DevTools protocol on a pipe."""

    def __init__(self, home: Path) -> None:
        theirs_in, ours_out = os.pipe()
        ours_in, theirs_out = os.pipe()

        def descriptors() -> None:  # in the child: its fd 3 reads, fd 4 writes
            high_in, high_out = os.dup(theirs_in), os.dup(theirs_out)
            os.dup2(high_in, 3)
            os.dup2(high_out, 4)

        self.process = subprocess.Popen(
            [str(BROWSER), *(f.format(home=home) for f in FLAGS)], preexec_fn=descriptors,
            close_fds=False, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        os.close(theirs_in)
        os.close(theirs_out)
        self.out = os.fdopen(ours_out, "wb", buffering=0)
        self.inp = os.fdopen(ours_in, "rb", buffering=0)
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]

    def _message(self) -> dict[str, Any]:
        while b"\0" not in self.buffer:
            chunk = self.inp.read(65536)
            if not chunk:
                raise RuntimeError("the browser closed the DevTools pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)  # type: ignore[no-any-return]

    def call(self, method: str, params: dict[str, Any] | None = None,
             session: bool = False) -> dict[str, Any]:
        self.next_id += 1
        message: dict[str, Any] = {"id": self.next_id, "method": method,
                                   "params": params or {}}
        if session:
            message["sessionId"] = self.session
        self.out.write(json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})  # type: ignore[no-any-return]
            self.events.append(reply)

    def page(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return self.call(method, params, session=True)

    def evaluate(self, expression: str) -> Any:
        result = self.page("Runtime.evaluate", {"expression": expression,
                                                "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self.page("Page.enable")
        self.page("Emulation.setDeviceMetricsOverride", PHONE)
        self.page("Page.navigate", {"url": url})
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.events.append(self._message())

    def click(self, selector: str) -> None:
        """A real left click at the element's centre (scrolled into view first)."""
        x, y = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
            "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        self.page("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})
        for kind in ("mousePressed", "mouseReleased"):
            self.page("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y,
                                                   "button": "left", "clickCount": 1})

    def type_into(self, selector: str, text: str) -> None:
        """Click the field, clear it with Backspace key presses, type ``text``."""
        self.click(selector)
        self.page("Input.dispatchKeyEvent", {"type": "rawKeyDown", "key": "End",
                                             "code": "End", "windowsVirtualKeyCode": 35})
        length = self.evaluate(f"document.querySelector({json.dumps(selector)}).value.length")
        for _ in range(length):
            for kind in ("rawKeyDown", "keyUp"):
                self.page("Input.dispatchKeyEvent", {"type": kind, "key": "Backspace",
                                                     "code": "Backspace",
                                                     "windowsVirtualKeyCode": 8})
        self.page("Input.insertText", {"text": text})

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self.call("Browser.close")
        self.process.wait(timeout=30)
        self.out.close()
        self.inp.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    opened = Browser(tmp_path_factory.mktemp("chromium-home"))
    try:
        opened.open(PAGE.as_uri())
        yield opened
    finally:
        opened.close()


def _situations() -> list[dict[str, Any]]:
    """36 seeded situations: every table size, seats and the bank, naturals, earlier
    choices, cards typed (with and without suits) or a total picked."""
    rng = random.Random(20)
    cards = ["T5", "8 7", "A3", "10 4", "K6", "2 2", "9 6", "5 Q", "3 4", "J J", "A A", "7 8"]
    out = []
    for index in range(36):
        people = 2 + index % 8
        players = people - 1
        bank = index % 3 == 2
        seat = None if bank else rng.randint(1, players)
        states: dict[int, str] = {}
        for j in range(1, players + 1):
            if j == seat:
                continue
            natural = rng.random() < 0.2
            if bank or j < (seat or 0):
                states[j] = "natural" if natural else rng.choice(["drew", "stood"])
            else:
                states[j] = "natural" if natural else "live"
        if bank and all(s == "natural" for s in states.values()):
            states[1] = "stood"
        hand = rng.choice(cards)
        total = None if index % 4 == 1 else hand
        while total is not None and sum((0 if c in "TJQK" or c == "1" else 1 if c == "A"
                                         else int(c)) for c in total.replace("10", "T")
                                        if c != " ") % 10 == 9:
            total = hand = rng.choice(cards)
        out.append({"people": people, "seat": seat, "states": states, "cards": hand,
                    "typed": total is not None})
    return out


def _card_total(text: str) -> int:
    values = {"T": 0, "J": 0, "Q": 0, "K": 0, "A": 1}
    symbols = text.replace("10", "T").replace(" ", "")
    return sum(values.get(c, int(c) if c.isdigit() else 0) for c in symbols) % 10


def _advise(situation: dict[str, Any]) -> dict[str, Any]:
    people, states = situation["people"], situation["states"]
    naturals = ",".join(str(j) for j, s in sorted(states.items()) if s == "natural")
    args = ["advise", "--people", str(people), "--cards", situation["cards"], "--infinite",
            "--format", "json"]
    if situation["seat"] is None:
        args += ["--banker", "--choices", ",".join(states[j] for j in sorted(states))]
    else:
        earlier = [states[j] for j in sorted(states) if j < situation["seat"]]
        args += ["--seat", str(situation["seat"]), "--earlier", ",".join(earlier)]
        if naturals:
            args += ["--naturals", naturals]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, (args, result.output)
    return json.loads(result.output)  # type: ignore[no-any-return]


def test_the_published_page_embeds_the_certified_equilibria() -> None:
    # the page is what the solver gives for the 9-people table (a 3-people table's page
    # holds the same subgames of 1 and 2 live seats)
    small = render_advisor(advisor_data(solve_table(LUCKY9, Shoe.infinite(), 2, "total")))
    published = PAGE.read_text(encoding="utf-8")
    data = json.loads(published.split('id="data">', 1)[1].split("</script>", 1)[0])
    mine = json.loads(small.split('id="data">', 1)[1].split("</script>", 1)[0])
    assert data["subgames"][:2] == mine["subgames"] and data["people"] == [2, 9]
    assert data["certified"] and len(data["subgames"]) == 8
    assert "http:" not in published and "https:" not in published


@needs_browser
def test_the_page_fits_a_phone_screen(browser: Browser) -> None:
    browser.click('#people button[data-value="9"]')
    browser.click('#mode button[data-value="seat"]')
    width = browser.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] == PHONE["width"]
    size = browser.evaluate("getComputedStyle(document.querySelector('#people button'))"
                            ".minHeight")
    assert float(size.rstrip("px")) >= 40  # buttons a finger can press


@needs_browser
@pytest.mark.parametrize("index", range(36))
def test_the_page_answers_what_nine_advise_answers(browser: Browser, index: int) -> None:
    situation = _situations()[index]
    expected = _advise(situation)
    browser.click(f'#mode button[data-value="{"bank" if situation["seat"] is None else "seat"}"]')
    browser.click(f'#people button[data-value="{situation["people"]}"]')
    if situation["seat"] is not None:
        browser.click(f'#seat button[data-value="{situation["seat"]}"]')
    for seat, state in sorted(situation["states"].items()):
        browser.click(f'#seat-{seat} button[data-value="{state}"]')
    if situation["typed"]:
        browser.type_into("#cards", situation["cards"])
    else:
        browser.click(f'#totals button[data-value="{_card_total(situation["cards"])}"]')
    shown = browser.evaluate("(() => { const p = document.getElementById('play'); return "
                             "{draw: p.dataset.draw, margin: p.dataset.margin, text: "
                             "p.textContent, why: document.getElementById('why').textContent}"
                             "})()")
    assert Fraction(shown["draw"]) == Fraction(expected["draw_probability"]), (situation, shown)
    assert abs(float(shown["margin"]) - expected["margin_float"]) < 1e-9
    # the same words, the margin and expected results rounded as the command rounds them
    assert f"{shown['text']} {shown['why']}" == expected["advice"]


def test_advise_takes_the_published_equilibria_only_as_published(tmp_path: Path) -> None:
    known = published_strategies(LUCKY9)
    assert known is not None and set(known) == {(live, ()) for live in range(1, 9)}
    # solved for other rules (another fingerprint): not taken
    assert published_strategies(load_profile("lucky9-bank-ties").choice_rules()) is None
    # a copy as published is taken; edited after publishing (its SHA-256 is no longer the
    # manifest's), it is not
    tables = PAGE.parent.parent
    (tmp_path / "lucky9").mkdir()
    shutil.copy(tables / MANIFEST, tmp_path / MANIFEST)
    text = (tables / STRATEGIES_FILE).read_text(encoding="utf-8")
    (tmp_path / STRATEGIES_FILE).write_text(text, encoding="utf-8")
    assert published_strategies(LUCKY9, tmp_path) == known
    (tmp_path / STRATEGIES_FILE).write_text(text.replace('"6/11"', '"1"', 1), encoding="utf-8")
    assert published_strategies(LUCKY9, tmp_path) is None
    # what advise answers from them is what it answers solving
    question = {"people": 4, "seat": 2, "cards": "T 5", "earlier": "stood"}
    from_data = advise_seat(LUCKY9, Shoe.infinite(), known=known, **question)
    assert from_data == advise_seat(LUCKY9, Shoe.infinite(), **question)
    assert from_data.certified and from_data.action == "draw 32/65"
