"""The published PAR sheets' dates and PDFs, settled against the folder before it is
written or checked (:mod:`analyzer.present.tables.folder` then compares bytes).

A sheet states the day it was generated, and a PDF's bytes carry the time it was printed,
so neither is compared byte for byte:

- a sheet (HTML, Markdown) that differs from the folder's copy only in its date is the
  folder's copy: it is current, and is neither rewritten nor reported;
- a PDF is the published HTML page printed (:func:`~analyzer.present.report.par.par_pdf`);
  it states the SHA-256 of that page. Writing keeps the folder's PDF when it states the
  page's current digest and prints it otherwise. ``check="print"`` (``nine tables
  --check``) prints every PDF again and accepts the folder's when the two have the same
  text on the same number of pages; ``check="recorded"`` (the tests: printing every sheet
  takes about a minute) accepts it when it states the current page's digest. A PDF that
  is not accepted is stale.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Literal

from analyzer.errors import AnalyzerError
from analyzer.present.pdf import PDF_NEEDS, pdf_engine, pdf_metadata, pdf_pages
from analyzer.present.report.par import SOURCE_KEY, par_pdf
from analyzer.present.tables.publication import Publication

__all__ = ["settle", "undated"]

_DATE = re.compile(rb"(?<=enerated )\d{4}-\d{2}-\d{2}")


def undated(content: bytes) -> bytes:
    """A sheet without the day it was generated.

    >>> undated(b"Generated 2026-12-01 by nine-analyzer; generated 2026-12-01")
    b'Generated DATE by nine-analyzer; generated DATE'
    """
    return _DATE.sub(b"DATE", content)


def _on_disk(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() and not path.is_symlink() else None


def _states_source(pdf: bytes, page: bytes) -> bool:
    try:
        recorded = pdf_metadata(pdf).get(f"/{SOURCE_KEY}")
    except AnalyzerError:
        return False
    return recorded == hashlib.sha256(page).hexdigest()


def settle(publication: Publication, folder: str | Path,
           check: Literal["print", "recorded"] | None = None) -> None:
    """Settle the publication's sheets against ``folder`` and add its PDFs to ``files``
    (see the module's notes): for writing (``check`` None) or checking."""
    folder = Path(folder)
    for relative, content in publication.files.items():
        if relative.endswith((".html", ".md")):
            disk = _on_disk(folder / relative)
            if disk is not None and disk != content and undated(disk) == undated(content):
                publication.files[relative] = disk
    for relative, source in publication.printed.items():
        page = publication.files.get(source)
        if page is None:
            continue
        publication.owner[relative] = publication.owner.get(source, "par")
        disk = _on_disk(folder / relative)
        current = disk is not None and _states_source(disk, page)
        if check == "recorded":
            publication.files[relative] = disk if disk is not None and current else b""
            continue
        if disk is not None and current and check is None:
            publication.files[relative] = disk
            continue
        if pdf_engine() is None:
            raise AnalyzerError(f"{folder / relative}: {'out of date and ' if disk else ''}"
                                f"cannot be printed: {PDF_NEEDS}")
        fresh = par_pdf(page)
        same = disk is not None and pdf_pages(disk) == pdf_pages(fresh)
        publication.files[relative] = disk if same and disk is not None else fresh
