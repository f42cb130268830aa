"""The ``nine`` group: every command is registered, loads only its own module, and is
listed by ``nine --help`` without importing any command module."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from analyzer import __version__
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
                "analyzer.choice.headsup.solver", "analyzer.present.tables"} & odds
    advise = _modules_after("advise", "--people", "5", "--cards", "8 7", "--infinite")
    assert "analyzer.cli.lucky9" in advise
    assert not {"analyzer.cli.choice", "analyzer.present.tables.build", "analyzer.verify.run",
                "analyzer.analysis.drift", "analyzer.choice.play.session"} & advise
    listed = _modules_after("--help")
    assert not any(m.startswith(("analyzer.cli.", "analyzer.engine")) and m not in (
        "analyzer.cli.commands",) for m in listed), listed


def test_version_and_python_dash_m() -> None:
    result = subprocess.run([sys.executable, "-m", "analyzer", "--version"],
                            capture_output=True, text=True, check=True)
    assert result.stdout.startswith("nine, version ")


#: One cheap run of every command whose ``--format`` offers ``json`` (each JSON form a
#: command has: heads-up and table, seat and bank, by size), ``{log}`` a small seeded log.
JSON_RUNS = {
    "advise": [["--people", "3", "--cards", "5H TS", "--infinite"],
               ["--banker", "--cards", "6H TS", "--choices", "stood,stood", "--infinite"]],
    "advisor": [["--people", "3"]],
    "certify": [["--list"]],
    "eor": [["--profile", "punto-banco", "--decks", "1"]],
    "evaluate": [["--infinite"], ["--players", "2", "--infinite"]],
    "features": [[]],
    "formula": [["--profile", "punto-banco", "--bet", "banker"]],
    "odds": [["--profile", "punto-banco", "--decks", "1"]],
    "profiles": [[]],
    "session": [["--people", "3", "--rotations", "1", "--seed", "1"]],
    "shoe": [["--profile", "punto-banco", "--decks", "1", "--shoes", "1", "--seed", "1"]],
    "solve": [["--infinite"], ["--players", "2", "--infinite", "--no-costs"],
              ["--players", "2", "--infinite", "--by-size"]],
    "solve-payout": [["--profile", "punto-banco", "--bet", "tie", "--line", "tie",
                      "--edge", "0.05"]],
    "verify": [["{log}", "--profile", "punto-banco"]],
}


def _json_commands() -> set[str]:
    context = click.Context(main)
    return {name for name in main.list_commands(context)
            if any("--format" in getattr(p, "opts", ()) and "json" in getattr(p.type, "choices", ())
                   for p in main.get_command(context, name).params)}  # type: ignore[union-attr]


def test_every_json_output_is_valid_json_stating_the_analyzer_version(tmp_path: Path) -> None:
    assert _json_commands() == set(JSON_RUNS)  # a new JSON command needs a run here
    log = tmp_path / "hands.csv"
    runner = CliRunner()
    made = runner.invoke(main, ["simulate", "--profile", "punto-banco", "--shoes", "1",
                                "--seed", "1", "--out", str(log)])
    assert made.exit_code == 0, made.output
    for name, runs in JSON_RUNS.items():
        for args in runs:
            argv = [name, *(a.format(log=log) for a in args), "--format", "json"]
            result = runner.invoke(main, argv)
            assert result.exit_code == 0, (argv, result.output)
            document = json.loads(result.stdout)
            assert isinstance(document, dict), argv
            assert document["analyzer_version"] == __version__, argv


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


def _frozen_after(script: str) -> int:
    """Objects frozen (gc.get_freeze_count) in a fresh interpreter after ``script``."""
    done = subprocess.run([sys.executable, "-c", "import gc, sys\n" + script +
                           "print(gc.get_freeze_count(), file=sys.stderr)"],
                          capture_output=True, text=True, check=True)
    return int(done.stderr.strip())


def test_only_the_program_freezes_the_imported_objects() -> None:
    """``nine`` itself (run: the console script, ``python -m analyzer``) freezes the
    objects of the command it imports; ``main`` called within another program does not
    (a freeze would keep that program's garbage cycles for good)."""
    assert _frozen_after("from analyzer.cli.commands import run\n"
                         "sys.argv = ['nine', 'profiles']\n"
                         "try:\n    run()\nexcept SystemExit:\n    pass\n") > 10_000
    assert _frozen_after("from click.testing import CliRunner\n"
                         "from analyzer.cli.commands import main\n"
                         "assert CliRunner().invoke(main, ['profiles']).exit_code == 0\n") == 0
