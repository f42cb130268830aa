"""PDF sheets: ``nine par --format pdf`` prints the HTML sheet to numbered A4 pages whose
text holds every bet's figures and whose contents give each section's real page."""

from __future__ import annotations

import hashlib
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.present.par import ParSheet, par_sheet
from analyzer.present.pdf import pdf_engine, pdf_metadata, pdf_pages
from analyzer.present.report.common import percent
from analyzer.present.report.par import SOURCE_KEY

pytestmark = pytest.mark.skipif(pdf_engine() is None, reason="neither WeasyPrint (the pdf "
                                "extra) nor Chromium is installed: no PDF can be printed")


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ParSheet]:
    folder = tmp_path_factory.mktemp("par")
    result = CliRunner().invoke(main, ["par", "--profile", "punto-banco", "--format", "pdf",
                                       "--format", "html", "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder / "punto-banco-8-decks.pdf", par_sheet("punto-banco", 8, plots=False)


def test_the_pdf_holds_every_bets_figures(printed: tuple[Path, ParSheet]) -> None:
    path, sheet = printed
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    text = " ".join(pdf_pages(data))
    for bet in sheet.bets:
        assert percent(bet.odds.house_edge) in text and percent(bet.rtp) in text, bet.odds.id
    assert sheet.profile_sha256 in text and f"Generated {sheet.generated}" in text
    assert "at alpha 0.01" in text and "1 in 2.18" in text  # Banker pays 1 in 2.18 coups


@pytest.mark.skipif(pdf_engine() != "weasyprint", reason="page numbers and contents' page "
                    "numbers need WeasyPrint (Chromium prints no CSS page counters)")
def test_pages_are_numbered_and_the_contents_give_real_pages(
        printed: tuple[Path, ParSheet]) -> None:
    path, sheet = printed
    pages = pdf_pages(path.read_bytes())
    # a page for the summary, rules and paytable, then each bet starts a page, then Method
    assert len(pages) >= 2 + len(sheet.bets)
    for number, text in enumerate(pages, 1):
        assert f"Page {number} of {len(pages)}" in text
    contents = pages[0].split("Contents", 1)[1].split("Summary", 2)
    entries = re.findall(r"(\w[^…]*?) … p\. (\d+)", "Summary" + contents[1])
    assert len(entries) == 4 + len(sheet.bets)  # summary, rules, paytable, bets, method
    for title, page in entries:
        assert title.split(" (")[0] in pages[int(page) - 1], (title, page)
    html = (path.parent / "punto-banco-8-decks.html").read_bytes()

    assert pdf_metadata(path.read_bytes())[f"/{SOURCE_KEY}"] == hashlib.sha256(html).hexdigest()


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler's pdftoppm is not "
                    "installed (apt-get install poppler-utils)")
def test_page_one_renders_as_an_a4_picture(printed: tuple[Path, ParSheet],
                                           tmp_path: Path) -> None:
    path, _ = printed
    subprocess.run(["pdftoppm", "-png", "-r", "30", "-f", "1", "-l", "1", "-singlefile",
                    str(path), str(tmp_path / "page")], check=True, timeout=120)
    png = (tmp_path / "page.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = struct.unpack(">II", png[16:24])
    assert abs(297 * width / height - 210) < 1.5  # A4 portrait (whole pixels at 30 dpi)
