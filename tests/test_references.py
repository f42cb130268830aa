"""Every reference a reader can follow exists in the repository.

Docs, the README, the published tables, the profiles and every docstring and comment (the
whole source of the package, its tests and benchmarks) are scanned for:

- repository paths (``docs/rules/punto-banco.md``, ``analyzer/engine/odds.py``,
  ``tests/...``, or a pattern ``tables/odds/*.md``): the file or folder must exist;
- rules citations ``docs/rules/<file>.md §N`` (also ``§N-§M``) and Markdown links
  ``file.md#sN``: the section anchor ``<a id="sN">`` must exist in that file;
- relative Markdown and HTML links (``[text](target)``, ``href="target"``) from the file
  they are written in;
- names of documents outside the repository (the former rules document and numbered seed
  documents): none may appear.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Built from parts so that this file does not name what it forbids.
FORBIDDEN = re.compile("|".join([r"RULES" + r"\.md", r"(?i:\bseeds?[ _]?0\d\d\b)",
                                 r"\.\./" + "shared"]))
#: Top folders a path reference may start with, and top-level files.
TOP = ("docs", "analyzer", "tests", "tables", "benchmarks")
TOP_FILES = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "LICENSE", "Makefile",
             "pyproject.toml")
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(TOP) + r")/[\w./*-]*)")
CITATION = re.compile(r"(docs/rules/[\w-]+\.md) §(\d+)(?:-§(\d+))?")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
HTML_LINK = re.compile(r"""(?:href|src)="([^"]+)\"""")
SUFFIXES = {".md", ".py", ".toml", ".csv", ".json", ".txt", ".html", ".cfg", ".in"}


def _scanned() -> list[Path]:
    files = [ROOT / name for name in TOP_FILES if (ROOT / name).is_file()]
    for top in TOP:
        files += [path for path in sorted((ROOT / top).rglob("*"))
                  if path.is_file() and path.suffix in SUFFIXES
                  and not any(part.startswith(".") or part == "__pycache__"
                              for part in path.relative_to(ROOT).parts)]
    # This file names what it forbids and plants broken references in its own test.
    return [path for path in files if path != Path(__file__).resolve()]


FILES = _scanned()


def _anchors(path: Path) -> set[str]:
    return set(re.findall(r'<a id="([\w-]+)"></a>', path.read_text(encoding="utf-8")))


def _problems(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    where = path.relative_to(ROOT).as_posix()
    problems = [f"{where}: names {m.group(0)!r}, a document outside the repository"
                for m in FORBIDDEN.finditer(text)]
    for match in PATH.finditer(text):
        target = match.group(1).rstrip(".")
        if not ((ROOT / target).exists() if "*" not in target else any(ROOT.glob(target))):
            problems.append(f"{where}: {target} does not exist")
    for match in CITATION.finditer(text):
        file, first, last = match.group(1), int(match.group(2)), match.group(3)
        if not (ROOT / file).is_file():
            continue  # reported above
        anchors = _anchors(ROOT / file)
        for n in range(first, int(last or first) + 1):
            if f"s{n}" not in anchors:
                problems.append(f"{where}: {file} has no section §{n}")
    if path.suffix in (".md", ".html"):
        links = MD_LINK.findall(text) + HTML_LINK.findall(text)
        for link in links:
            if re.match(r"[a-z]+:", link) or link.startswith("#"):
                continue  # http(s), data: and mailto: links; anchors within the page
            target, _, anchor = link.partition("#")
            resolved = (path.parent / target).resolve()
            if not resolved.exists():
                problems.append(f"{where}: link {link} does not exist")
            elif anchor and resolved.suffix == ".md" and re.fullmatch(r"s\d+", anchor) \
                    and anchor not in _anchors(resolved):
                problems.append(f"{where}: link {link}: no such section")
    return problems


def test_the_scan_covers_every_kind_of_file() -> None:
    relative = {path.relative_to(ROOT).as_posix() for path in FILES}
    for expected in ("README.md", "docs/rules/punto-banco.md", "tables/README.md",
                     "analyzer/profiles/nine-and-nines.toml", "analyzer/engine/odds.py",
                     "tests/reference/punto_banco.toml", "tests/test_layers.py"):
        assert expected in relative


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_reference_exists(path: Path) -> None:
    assert _problems(path) == []


def test_the_checks_catch_what_they_should(tmp_path: Path) -> None:
    """A planted file with one broken reference of every kind fails every check."""
    planted = ROOT / "docs" / "_planted_reference_check.md"
    text = ("See " + "RULES" + ".md section 2 and seed " + "004; docs/rules/nope.md; "
            "analyzer/engine/no_such_module.py; docs/rules/punto-banco.md §99; "
            "[x](rules/missing.md), [y](rules/punto-banco.md#s42), "
            "[ok](rules/punto-banco.md#s3) and docs/rules/punto-banco.md §2-§4.\n")
    planted.write_text(text, encoding="utf-8")
    try:
        problems = _problems(planted)
    finally:
        planted.unlink()
    assert len(problems) == 7, problems
    assert any("docs/rules/nope.md does not exist" in p for p in problems)
    assert any("no_such_module.py does not exist" in p for p in problems)
    assert any("no section §99" in p for p in problems)
    assert any("link rules/missing.md does not exist" in p for p in problems)
    assert any("rules/punto-banco.md#s42: no such section" in p for p in problems)
    assert sum("outside the repository" in p for p in problems) == 2
