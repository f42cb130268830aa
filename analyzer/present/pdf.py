"""Printing a self-contained HTML page to PDF, and reading a PDF's pages back as text.

:func:`html_pdf` prints with WeasyPrint when it is installed (``pip install
'nine-analyzer[pdf]'``; it honours CSS Paged Media: page numbers, footers, a table of
contents' page numbers), else with Chromium's print-to-PDF where installed (no page
numbers or metadata there). :func:`pdf_pages` reads the text of each page (pypdf, of the
same extra) or poppler's ``pdftotext``, to compare two printings by text and page count:
a PDF's bytes carry the time it was printed (its embedded fonts' subsets are stamped).
"""

from __future__ import annotations

import importlib.util
import io
import shutil
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from analyzer.errors import AnalyzerError

__all__ = ["html_pdf", "pdf_engine", "pdf_metadata", "pdf_pages", "PDF_NEEDS"]

#: What a PDF needs, said in errors.
PDF_NEEDS = ("PDF output needs WeasyPrint (pip install 'nine-analyzer[pdf]') or Chromium; "
             "neither is installed")


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pdf_engine() -> str | None:
    """``"weasyprint"``, ``"chromium"`` or None: what :func:`html_pdf` would print with."""
    if importlib.util.find_spec("weasyprint") is not None:
        return "weasyprint"
    return "chromium" if _chromium() else None


def html_pdf(page: str, metadata: Mapping[str, str] | None = None) -> bytes:
    """A self-contained HTML page printed to PDF (A4 by the page's own ``@page`` rule).

    ``metadata`` goes into the PDF's document information (WeasyPrint only), e.g. the
    SHA-256 of the page it was printed from.
    """
    engine = pdf_engine()
    if engine == "weasyprint":
        import weasyprint  # optional: only PDF output needs it (the pdf extra)

        document = weasyprint.HTML(string=page).render()
        for key, value in (metadata or {}).items():
            document.metadata.custom[key] = value
        return bytes(document.write_pdf(custom_metadata=bool(metadata)))
    browser = _chromium()
    if browser is None:
        raise AnalyzerError(PDF_NEEDS)
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "page.html", Path(folder) / "page.pdf"
        source.write_text(page, encoding="utf-8")
        done = subprocess.run(
            [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
             f"--user-data-dir={folder}/profile", f"--print-to-pdf={target}",
             source.as_uri()], capture_output=True, timeout=300, check=False)
        if done.returncode != 0 or not target.exists():
            raise AnalyzerError(f"PDF: Chromium's print-to-PDF failed (exit {done.returncode})")
        return target.read_bytes()


def _reader(data: bytes) -> object:
    if importlib.util.find_spec("pypdf") is None:
        return None
    import pypdf  # optional: the pdf extra

    try:
        return pypdf.PdfReader(io.BytesIO(data))
    except pypdf.errors.PdfReadError as exc:
        raise AnalyzerError(f"not a readable PDF: {exc}") from None


def pdf_pages(data: bytes) -> tuple[str, ...]:
    """The text of each page of a PDF (poppler's ``pdftotext`` where installed: ten times
    faster; else pypdf), whitespace-normalised."""
    if shutil.which("pdftotext"):
        done = subprocess.run(["pdftotext", "-enc", "UTF-8", "-", "-"], input=data,
                              capture_output=True, timeout=120, check=False)
        if done.returncode != 0:
            raise AnalyzerError("not a readable PDF (pdftotext failed)")
        pages = done.stdout.decode("utf-8", "replace").split("\f")[:-1]
    elif (reader := _reader(data)) is not None:
        pages = [page.extract_text() or "" for page in reader.pages]  # type: ignore[attr-defined]
    else:
        raise AnalyzerError("reading a PDF needs pypdf (pip install 'nine-analyzer[pdf]') or "
                            "poppler's pdftotext; neither is installed")
    return tuple(" ".join(text.split()) for text in pages)


def pdf_metadata(data: bytes) -> dict[str, str]:
    """A PDF's document information (``/Title``, custom keys, ...) as text; empty when
    pypdf is not installed."""
    reader = _reader(data)
    info = getattr(reader, "metadata", None) or {}
    return {str(key): str(value) for key, value in info.items()}
