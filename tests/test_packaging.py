"""The package metadata an installer expects, and the version from its one home.

``project.license`` is an SPDX expression (a license table makes setuptools print a
deprecation warning on every install), the version is read from ``analyzer.__version__``,
and ``nine --version``, the changelog and every JSON output state that version.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer import __version__
from analyzer.cli.commands import main

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_license_is_an_spdx_expression_with_its_file() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert not any(c.startswith("License ::") for c in project["classifiers"])  # PEP 639
    requires = PYPROJECT["build-system"]["requires"]
    minimum = next(r for r in requires if r.startswith("setuptools"))
    assert re.fullmatch(r"setuptools>=(\d+)", minimum) and int(minimum.split(">=")[1]) >= 77


def test_the_version_has_one_home() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "analyzer.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


def test_classifiers_and_no_invented_urls() -> None:
    project = PYPROJECT["project"]
    assert "Programming Language :: Python :: 3.11" in project["classifiers"]
    assert "Typing :: Typed" in project["classifiers"]
    # There is no public repository address: no URL is made up.
    assert "urls" not in project


def test_nine_version_prints_it() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"nine, version {__version__}\n"


def test_the_changelog_has_a_section_for_the_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith("# Changelog")
    assert "## [Unreleased]" in changelog
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d\d-\d\d$", changelog,
                     re.MULTILINE)


@pytest.mark.parametrize("args", [
    ["odds", "--profile", "punto-banco", "--decks", "1"],
    ["solve-payout", "--profile", "punto-banco", "--bet", "tie", "--line", "1", "--edge",
     "0.05", "--decks", "1"],
    ["eor", "--profile", "punto-banco", "--decks", "1", "--samples", "0"],
    ["solve", "--profile", "lucky9-home", "--players", "1", "--infinite", "--by", "total"],
])
def test_every_json_output_states_the_version(args: list[str]) -> None:
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["analyzer_version"] == __version__
