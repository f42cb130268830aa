"""The published tables: tables/ is current, every file states its provenance, commands agree.

The tables are built by library calls; the commands stated in their headers are checked here
to be valid ``nine`` command lines that print the same tables.
"""

from __future__ import annotations

import dataclasses
import html
import json
import multiprocessing
import pickle
import re
import shlex
from fractions import Fraction
from pathlib import Path
from typing import cast

import click
import pytest
from click.testing import CliRunner
from filelock import FileLock

from analyzer import __version__
from analyzer.cli.commands import main
from analyzer.errors import AnalyzerError
from analyzer.present.pdf import pdf_engine, pdf_pages
from analyzer.present.tables import POWER
from analyzer.present.tables.build import build_tables
from analyzer.present.tables.folder import MANIFEST, compare_tables, write_tables
from analyzer.present.tables.printing import settle, undated
from analyzer.present.tables.publication import GENERATE_COMMAND, Publication
from analyzer.present.tables.results import Results
from analyzer.present.tables.sections import ALPHA, RTP_ERROR
from analyzer.rules.profile import shipped_profiles
from analyzer.verify.inference.statistics import rtp_hands_needed

TABLES = Path(__file__).resolve().parent.parent.parent / "tables"


@pytest.fixture(scope="module")
def publication(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Publication:
    """The whole publication, regenerated in memory once per test session: under xdist the
    first worker to ask builds it (in its own process) and the others wait and read its pickle
    (pytest-xdist's recipe for a fixture run once; its ``xdist_group`` mark does not hold
    under pytest 9.2). A test here reads files, owners and sections, never ``results``."""
    if worker_id == "master":
        return build_tables(jobs=2)
    shared = tmp_path_factory.getbasetemp().parent / "publication.pickle"
    with FileLock(f"{shared}.lock"):
        if shared.is_file():
            return cast(Publication, pickle.loads(shared.read_bytes()))
        built = build_tables()  # one process: the other worker keeps the second core busy
        # ``results`` (the analyses kept for later sections, never written) is not shared
        shared.write_bytes(pickle.dumps(dataclasses.replace(built, results=Results())))
        return built


def test_tables_folder_is_current(publication: Publication) -> None:
    """Every file byte for byte, a PAR sheet's date aside; a PDF by the SHA-256 of the page
    it states it was printed from (``nine tables --check`` prints it again)."""
    settled = dataclasses.replace(publication, files=dict(publication.files),
                                  owner=dict(publication.owner))
    settle(settled, TABLES, "recorded")
    assert {path for path in settled.files if path.endswith(".pdf")} == {
        f"par/{profile.name}-{profile.default_decks}-deck{'s' * (profile.default_decks > 1)}"
        ".pdf" for profile in shipped_profiles()}
    problems = compare_tables(settled, TABLES)
    assert problems == [], (
        f"tables/ is stale ({len(problems)} files): run `make tables`; first: {problems[:10]}")


def test_every_shoe_of_punto_banco_is_published(publication: Publication) -> None:
    for slug in ("1-deck", "2-decks", "4-decks", "6-decks", "8-decks", "infinite"):
        for ext in ("md", "csv", "json"):
            assert f"odds/punto-banco/punto-banco-{slug}.{ext}" in publication.files


def test_every_file_states_profile_shoe_version_and_command(publication: Publication) -> None:
    assert "index.html" in publication.files
    for path, content in publication.files.items():
        if path == "README.md" or path.endswith(".png"):
            continue
        text = content.decode("utf-8")
        if path.endswith(".json"):
            document = json.loads(text)
            for key in ("profile", "shoe", "analyzer_version", "command"):
                assert document[key], f"{path} lacks {key}"
            assert document["analyzer_version"] == __version__
            assert document["command"].startswith("nine ")
        else:
            head = "\n".join(text.splitlines()[:4])
            assert f"analyzer {__version__}" in head, path
            assert "profile" in head and "shoe" in head, path
            assert "nine " in head and GENERATE_COMMAND in head, path


def test_odds_table_is_what_its_command_prints(publication: Publication) -> None:
    text = publication.text("odds/punto-banco/punto-banco-8-decks.md")
    assert "`nine odds --profile punto-banco --decks 8 --format markdown`" in text
    result = CliRunner().invoke(main, ["odds", "--profile", "punto-banco", "--decks", "8",
                                       "--format", "markdown"])
    assert result.exit_code == 0
    assert text.endswith(result.stdout.rstrip("\n") + "\n")
    assert "2292252566437888" in text


def test_json_table_holds_exact_figures(publication: Publication) -> None:
    document = json.loads(publication.text("odds/punto-banco/punto-banco-8-decks.json"))
    assert document["denominator"] == "4998398275503360"
    assert document["command"] == ("nine odds --profile punto-banco --decks 8 --format json")
    banker = next(bet for bet in document["bets"] if bet["id"] == "banker")
    assert Fraction(banker["ev"]) == Fraction(-114753351728, 10847218479825)
    infinite = json.loads(publication.text("odds/punto-banco/punto-banco-infinite.json"))
    assert infinite["denominator"] == str(13**6)


def test_one_row_per_line(publication: Publication) -> None:
    csv = publication.text("odds/punto-banco/punto-banco-1-deck.csv").splitlines()
    rows = [line for line in csv if not line.startswith("#")]
    assert rows[0].startswith("profile,shoe,bet,line,pays,ways,denominator,probability,")
    assert rows[1].startswith("punto-banco,1 deck,banker,Banker wins,19/20,")
    assert len(rows) == 1 + 5 + 3  # banker 2 lines, player 2, tie 1, and a losing row each
    document = publication.text("odds/punto-banco/punto-banco-1-deck.json")
    assert '\n  "bets": [\n' in document


def test_sample_sizes_follow_the_formula(publication: Publication) -> None:
    document = json.loads(publication.text("verification/sample-sizes.json"))
    assert (document["alpha"], document["power"], document["rtp_error"]) == (0.01, 0.8, 0.001)
    banker = next(row for row in document["bets"]
                  if row["profile"] == "punto-banco" and row["bet"] == "banker")
    # (1.959964 + 0.841621)^2 * variance / 0.001^2, variance exact from the 8-deck counts
    assert banker["hands_needed"] == rtp_hands_needed(float(Fraction(banker["variance"])) ** 0.5,
                                                      RTP_ERROR, ALPHA, POWER)
    assert 10_000_000 < banker["hands_needed"] < 10_100_000  # alpha 0.01 (0.05: 6,750,185)
    tie = next(row for row in document["bets"]
               if row["profile"] == "punto-banco" and row["bet"] == "tie")
    assert tie["hands_needed"] > 7 * banker["hands_needed"]


def test_index_lists_every_file_and_what_is_missing(publication: Publication) -> None:
    index = publication.text("README.md")
    page = publication.text("index.html")
    for path in publication.files:
        if path != "README.md":
            assert f"({path})" in index, f"{path} not linked from tables/README.md"
        if path != "index.html":
            assert f'href="{path}"' in page, f"{path} not linked from tables/index.html"
    for section in publication.sections:
        assert f"## {section.title}" in index
        for reason in section.missing:
            assert reason in index
    assert "Ordered 6-card counts" in index and "Two-card counts" in index


def test_write_and_check_round_trip(tmp_path: Path) -> None:
    small = build_tables(sections=("odds", "sample-sizes"), profiles=("punto-banco",),
                         decks=(1, None))
    assert write_tables(small, tmp_path) == (len(small.files), 0)
    assert compare_tables(small, tmp_path) == []
    assert (tmp_path / MANIFEST).is_file()
    target = tmp_path / "odds" / "punto-banco" / "punto-banco-1-deck.csv"
    target.write_text(target.read_text() + "tampered\n")
    (tmp_path / "odds" / "punto-banco" / "punto-banco-infinite.md").unlink()
    assert compare_tables(small, tmp_path) == [
        "edited by hand: odds/punto-banco/punto-banco-1-deck.csv",
        "missing: odds/punto-banco/punto-banco-infinite.md"]


def test_parallel_build_gives_the_same_files_and_closes_its_pool() -> None:
    """One pool of two workers (starting one costs seconds of imports): the same files as
    the serial build, and no worker left after it, nor after a build that fails."""
    sections = ("sample-sizes", "chemin-de-fer", "formulas")
    serial = build_tables(sections=sections, profiles=("punto-banco",))
    parallel = build_tables(sections=sections, profiles=("punto-banco",), jobs=2)
    assert parallel.files == serial.files
    assert multiprocessing.active_children() == []
    with pytest.raises(AnalyzerError, match="no-such-profile"):
        build_tables(sections=("sample-sizes", "formulas"), profiles=("no-such-profile",),
                     jobs=2)
    assert multiprocessing.active_children() == []


def _stated_command(publication: Publication, path: str) -> str:
    """The ``nine`` command a published file says prints it."""
    text = publication.text(path)
    if path.endswith(".json"):
        return str(json.loads(text)["command"])
    if path.endswith(".md"):
        return text.split("*command* `", 1)[1].split("`", 1)[0]
    if path.endswith(".html"):
        return text.split("command: ", 1)[1].split(" | ", 1)[0]
    if path.endswith(".svg"):
        desc = html.unescape(text.split("<desc>", 1)[1].split("</desc>", 1)[0])
        return desc.split("command: ", 1)[1].split(" | ", 1)[0]
    return next(line for line in text.splitlines()
                if line.startswith("# command: "))[len("# command: "):]


def test_every_stated_command_is_a_valid_command_line(publication: Publication) -> None:
    """Every header's command parses with ``nine``'s own options (not run: some are slow)."""
    stated = {_stated_command(publication, path) for path in publication.files
              if path != "README.md" and not path.endswith(".png")}
    stated |= {entry.command for section in publication.sections for entry in section.entries}
    assert GENERATE_COMMAND in stated
    for command in sorted(stated):
        words = shlex.split(command.replace("FILE.png", "plot.png"))
        assert words[0] == "nine", command
        sub = main.get_command(click.Context(main), words[1])
        assert sub is not None, command
        sub.make_context(f"nine {words[1]}", words[2:])  # raises on an unknown option/value


@pytest.mark.parametrize("path", [
    "lucky9/heads-up-1-deck-by-total-card.txt",
    "lucky9/heads-up-8-decks-by-cards.csv",
    "chemin-de-fer/infinite-by-total.md",
    "formulas/punto-banco.json",
    "removal/punto-banco-8-decks.md",
    "removal/punto-banco-8-decks.json",
])
def test_a_table_is_what_its_stated_command_prints(publication: Publication, path: str) -> None:
    words = shlex.split(_stated_command(publication, path))
    result = CliRunner().invoke(main, words[1:])
    assert result.exit_code == 0, result.output
    published = publication.text(path)
    if path.endswith(".json"):
        document = json.loads(published)
        printed = json.loads(result.stdout)
        assert {key: document[key] for key in printed} == printed
    else:
        assert published.endswith(result.stdout.rstrip("\n") + "\n")


def test_every_shipped_profile_has_a_par_sheet(publication: Publication) -> None:
    for stem in ("punto-banco-8-decks", "lucky-baccarat-8-decks", "nine-and-nines-8-decks",
                 "side-bets-8-decks", "ez-baccarat-8-decks", "lucky9-home-1-deck",
                 "chemin-de-fer-6-decks"):
        for ext in ("html", "md"):
            assert f"par/{stem}.{ext}" in publication.files
    # a choice game's sheet: its certified equilibrium, the same as the lucky9 section's
    chemin = publication.text("par/chemin-de-fer-6-decks.md")
    edge = Fraction(23174205422119131, 1794292354051081885)
    assert f"| game value for the player | -{edge} |" in re.sub(r" +", " ", chemin)
    lucky9 = publication.text("par/lucky9-home-1-deck.md")
    card = publication.text("lucky9/heads-up-1-deck-by-cards-card.md")
    assert "| T+5 | 5 | draw 863/1200 (71.9%) |" in re.sub(r" +", " ", lucky9)
    assert card.split("### Banker card", 1)[1].strip() in lucky9
    # the sheets reuse the other sections' results: the same exact figures and drift plot
    sheet = publication.text("par/punto-banco-8-decks.md")
    assert "2,292,252,566,437,888" in sheet and "114753351728/10847218479825" in sheet
    lucky = publication.text("par/lucky-baccarat-8-decks.md")
    assert "](../drift/lucky-baccarat-8-decks.png)" in lucky
    assert "par/lucky-baccarat-8-decks-drift.png" not in publication.files
    page = publication.text("par/lucky-baccarat-8-decks.html")
    assert page.count('src="data:image/png;base64,') == 1
    index = publication.text("index.html")
    assert 'href="par/nine-and-nines-8-decks.html"' in index and "1261867/<wbr>7817355" in index
    assert 'href="par/lucky9-home-1-deck.html"' in index and "1163927/<wbr>134725500" in index
    assert 'href="par/chemin-de-fer-6-decks.html"' in index
    assert str(edge).replace("/", "/<wbr>") in index


def test_the_par_section_alone_makes_the_same_sheets(publication: Publication) -> None:
    alone = build_tables(sections=("par",), profiles=("punto-banco", "lucky9-home"))
    for path in ("par/punto-banco-8-decks.html", "par/lucky9-home-1-deck.md"):
        assert alone.files[path] == publication.files[path]


@pytest.mark.skipif(pdf_engine() is None, reason="neither WeasyPrint (the pdf extra) nor "
                    "Chromium is installed: no PDF can be printed")
def test_a_stale_pdf_is_found_and_a_new_date_is_not(tmp_path: Path) -> None:
    built = build_tables(sections=("par",), profiles=("punto-banco",))

    def build() -> Publication:  # a fresh copy of the one build
        return dataclasses.replace(built, files=dict(built.files), owner=dict(built.owner),
                                   printed=dict(built.printed))

    written = build()
    settle(written, tmp_path)  # prints the PDF: none is there yet
    write_tables(written, tmp_path)
    pdf = "par/punto-banco-8-decks.pdf"
    assert pdf_pages(written.files[pdf])[0].startswith("PAR sheet: Punto banco, 8 decks")
    checked = build()
    settle(checked, tmp_path, "print")  # printed again, compared by text and page count
    assert compare_tables(checked, tmp_path) == []
    # the next day: only the sheets' dates differ, so nothing is stale (nor rewritten)
    html = "par/punto-banco-8-decks.html"
    later = build()
    later.files[html] = later.files[html].replace(b"enerated 20", b"enerated 19")
    assert later.files[html] != written.files[html]
    assert undated(later.files[html]) == undated(written.files[html])
    settle(later, tmp_path, "recorded")
    assert compare_tables(later, tmp_path) == []
    # a figure changes: the PDF printed from the old page is stale, by its stated source
    changed = build()
    changed.files[html] = changed.files[html].replace(b"98.9421%", b"98.9422%")
    settle(changed, tmp_path, "recorded")
    assert f"stale: {pdf}" in compare_tables(changed, tmp_path)


def test_five_people_one_deck_by_total_is_published_certified_in_qq_alpha(
        publication: Publication) -> None:
    """The 5-person one-deck table by total: certified through its algebraic block, its
    values decimals of QQ(alpha) elements (no fraction), in the table, its card and the
    one-deck edge by table size."""
    document = json.loads(publication.text("lucky9/5-people-1-deck-by-total.json"))
    assert document["certified"] is True and document["max_regret"] == "0"
    assert document["solved_at"] == document["values_at"] == "1 deck"
    assert document["banker"]["value"] is None
    assert document["banker"]["value_decimal"] == "0.013729430950"
    assert "rounded to 20 decimals" in publication.text("lucky9/5-people-1-deck-by-total-card.md")
    sizes = json.loads(publication.text("lucky9/bank-edge-by-table-size-1-deck.json"))["sizes"]
    five = sizes[-1]
    assert [row["people"] for row in sizes] == [2, 3, 4, 5] and five["certified"] is True
    assert five["total"]["value"] is None and five["total"]["decimal"] == "0.013729430950"
    assert "0.013729430950 (in QQ(alpha))" in publication.text(
        "lucky9/bank-edge-by-table-size-1-deck.md")
