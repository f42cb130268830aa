"""The ``nine`` group: every command is registered, loads only its own module, and is
listed by ``nine --help`` without importing any command module."""

from __future__ import annotations

import shlex
import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from analyzer.cli.commands import COMMANDS, LazyGroup, main


def _first_paragraph(command: click.Command) -> str:
    return " ".join((command.help or "").split("\n\n")[0].split())


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_registered_command_loads_with_its_summary(name: str) -> None:
    command = main.get_command(click.Context(main), name)
    assert isinstance(command, click.Command) and command.name == name
    assert _first_paragraph(command) == COMMANDS[name][1]


def test_help_lists_every_command_as_if_loaded() -> None:
    fresh = LazyGroup(name="nine", lazy=COMMANDS, help=main.help,
                      context_settings={"help_option_names": ["-h", "--help"]})
    lazy_help = CliRunner().invoke(fresh, ["--help"]).stdout
    eager = click.Group(name="nine", help=main.help,
                        context_settings={"help_option_names": ["-h", "--help"]})
    for name in COMMANDS:
        command = main.get_command(click.Context(main), name)
        assert command is not None
        eager.add_command(command, name)
    assert fresh.commands == {}  # --help imported nothing
    assert lazy_help == CliRunner().invoke(eager, ["--help"]).stdout
    assert all(f"  {name} " in lazy_help for name in COMMANDS)


def _modules_after(*args: str) -> set[str]:
    code = ("import sys\nfrom analyzer.cli import main\ntry:\n    main([" +
            ", ".join(repr(a) for a in args) + "])\nexcept SystemExit:\n    pass\n"
            "print(' '.join(m for m in sys.modules if m.startswith('analyzer')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split("\n")[-2].split())


def test_a_command_imports_only_its_own_module() -> None:
    odds = _modules_after("odds", "--decks", "1", "--no-distributions")
    assert "analyzer.cli.odds" in odds
    assert not {"analyzer.cli.analysis", "analyzer.cli.choice", "analyzer.cli.verify",
                "analyzer.cli.tables", "analyzer.analysis.drift", "analyzer.verify.run",
                "analyzer.choice.solver", "analyzer.present.tables"} & odds
    listed = _modules_after("--help")
    assert not any(m.startswith(("analyzer.cli.", "analyzer.engine")) and m not in (
        "analyzer.cli.commands",) for m in listed), listed


def test_version_and_python_dash_m() -> None:
    result = subprocess.run([sys.executable, "-m", "analyzer", "--version"],
                            capture_output=True, text=True, check=True)
    assert result.stdout.startswith("nine, version ")


@pytest.mark.parametrize("name", ["nine", *sorted(main.list_commands(click.Context(main)))])
def test_help_ends_with_two_examples_that_parse(name: str) -> None:
    """Every command's ``--help`` ends with two examples, each a valid command line of it."""
    args = ["--help"] if name == "nine" else [name, "--help"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0
    lines = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    assert lines[-3] == "Examples:", lines[-3:]
    for example in lines[-2:]:
        words = shlex.split(example)
        assert words[0] == "nine" and (name == "nine" or words[1] == name), example
        command = main.get_command(click.Context(main), words[1])
        assert command is not None
        command.make_context(f"nine {words[1]}", words[2:])  # raises on a bad option
