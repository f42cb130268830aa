"""The README documents every command and option, and its worked profile example is right."""

from __future__ import annotations

import re
import shlex
from fractions import Fraction
from itertools import product
from pathlib import Path

import click
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.engine.odds import odds
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "docs" / "examples" / "player-nine.toml"


def command_reference() -> tuple[dict[str, str], str]:
    """The README's command entries (name -> text) and its general paragraphs.

    An entry starts with a paragraph beginning `` `nine NAME`` and continues through the
    paragraphs that begin with ``:`` or an indent (the definition-list layout).
    """
    entries: dict[str, str] = {}
    general: list[str] = []
    current: str | None = None
    for paragraph in re.split(r"\n\s*\n", README):
        match = re.match(r"`nine ([a-z][a-z0-9-]*)", paragraph)
        if match:
            current = match.group(1)
            entries[current] = entries.get(current, "") + "\n" + paragraph
        elif current is not None and paragraph.startswith((":", " ")):
            entries[current] += "\n" + paragraph
        else:
            current = None
            general.append(paragraph)
    return entries, "\n".join(general)


def undocumented() -> list[str]:
    """Every command or option of ``nine`` that the README's reference does not mention."""
    entries, general = command_reference()
    missing = []
    for opt in (opt for param in main.params for opt in param.opts):
        if f"nine {opt}" not in README:
            missing.append(f"nine {opt}")

    def walk(group: click.Group, prefix: str) -> None:
        context = click.Context(group)
        for name in group.list_commands(context):
            command = group.get_command(context, name)
            assert command is not None, name
            full = f"{prefix} {name}".strip()
            entry = entries.get(full)
            if entry is None:
                missing.append(f"nine {full} (no `nine {full}` entry)")
                continue
            for opt in (opt for param in command.params for opt in param.opts
                        if opt.startswith("-")):
                if not re.search(rf"{re.escape(opt)}(?![\w-])", entry + general):
                    missing.append(f"nine {full} {opt}")
            if isinstance(command, click.Group):
                walk(command, full)

    walk(main, "")
    return missing


def test_every_command_and_option_is_documented() -> None:
    missing = undocumented()
    assert missing == [], f"README.md lacks {len(missing)}: {', '.join(missing)}"


def test_the_checker_notices_a_missing_option() -> None:
    entries, _ = command_reference()
    assert "--no-distributions" in entries["odds"]
    assert "tables" in entries and "--check" in entries["tables"]
    command = main.get_command(click.Context(main), "profiles")
    assert command is not None
    extra = click.Option(["--no-such-option"], is_flag=True)
    command.params.append(extra)
    try:
        assert "nine profiles --no-such-option" in undocumented()
    finally:
        command.params.remove(extra)


def test_worked_example_profile_loads_and_prices() -> None:
    profile = load_profile(EXAMPLE)
    assert [bet.id for bet in profile.bets] == ["player-nine"]
    assert profile.tableau == load_profile("punto-banco").tableau
    bet = odds(profile, Shoe.decks(8)).bet("player-nine")
    assert bet.ev == Fraction(-53147, 1542555)
    assert bet.lines[0].ways == 44838810157056
    assert bet.lines[1].ways == 429522620252160


def test_worked_example_against_the_first_four_cards() -> None:
    """Independent check: only P1 B1 P2 B2 matter; count them from 8 decks' value counts."""
    counts = [128] + [32] * 9  # value 0: tens and courts
    size = 416
    both = player_only = 0
    for p1, b1, p2, b2 in product(range(10), repeat=4):
        left = list(counts)
        ways = 1
        for value in (p1, b1, p2, b2):
            ways *= left[value]
            left[value] -= 1
        if (p1 + p2) % 10 == 9:
            if (b1 + b2) % 10 == 9:
                both += ways
            else:
                player_only += ways
    total = size * (size - 1) * (size - 2) * (size - 3)
    ev = Fraction(30 * both + 7 * player_only - (total - both - player_only), total)
    assert ev == Fraction(-53147, 1542555)
    fill = (size - 4) * (size - 5)  # the ordered 6-card convention
    assert both * fill == 44838810157056


def test_worked_example_command_output_is_in_the_readme() -> None:
    result = CliRunner().invoke(main, ["odds", "--profile", str(EXAMPLE), "--no-distributions",
                                       "--format", "markdown"])
    assert result.exit_code == 0
    tables = result.stdout.split("\n\n", 2)[2]  # after the title and denominator lines
    for line in tables.strip().splitlines():
        assert line in README, f"README example output is stale: {line}"


def test_published_tables_section_points_to_the_index() -> None:
    assert "## Published tables" in README
    assert "(tables/README.md)" in README
    assert (ROOT / "tables" / "README.md").is_file()


def _slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it."""
    return re.sub(r"[^a-z0-9 -]", "", heading.lower()).replace(" ", "-")


def _headings(level: str) -> list[str]:
    """The README's headings of one level (``##``), outside code blocks."""
    prose = re.sub(r"^```.*?^```$", "", README, flags=re.S | re.M)
    return re.findall(rf"^{level} (.+)$", prose, re.M)


def test_contents_link_every_section_in_order() -> None:
    contents = README.split("## Contents\n", 1)[1].split("\n## ", 1)[0]
    links = re.findall(r"^- \[([^\]]+)\]\(#([^)]+)\)", contents, re.M)
    sections = [h for h in _headings("##") if h != "Contents"]
    assert [title for title, _ in links] == sections
    assert all(anchor == _slug(title) for title, anchor in links)
    anchors = {_slug(h) for level in ("##", "###", "####") for h in _headings(level)}
    for anchor in re.findall(r"\]\(#([^)]+)\)", README):
        assert anchor in anchors, anchor


def test_quick_start_commands_parse() -> None:
    """Three quick starts (designer, QA and CI, home player), each command a valid line."""
    quick = README.split("## Quick starts\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```\n(.*?)^```$", quick, re.S | re.M)
    assert len(blocks) == 3
    for block in blocks:
        for line in block.splitlines():
            words = shlex.split(line.split("  #", 1)[0])
            command = main.get_command(click.Context(main), words[1])
            assert words[0] == "nine" and command is not None, line
            command.make_context(f"nine {words[1]}", words[2:])


def test_playing_home_lucky9_has_three_commands_a_chart_picture_and_the_true_answer() -> None:
    """The players' quick start: three commands that parse, a picture of a published chart,
    and the sentence it quotes is what the second command prints."""
    section = README.split("## Playing home Lucky 9\n", 1)[1].split("\n## ", 1)[0]
    first = section.split("\n\n")[1]
    lines = [line.strip() for line in first.splitlines()]
    assert len(lines) == 3 and all(line.startswith("nine ") for line in lines)
    for line in lines:
        words = shlex.split(line.split("  #", 1)[0])
        command = main.get_command(click.Context(main), words[1])
        assert command is not None, line
        command.make_context(f"nine {words[1]}", words[2:])
    (picture,) = re.findall(r"!\[[^\]]+\]\(([^)]+\.svg)\)", section)
    assert (ROOT / picture).read_text(encoding="utf-8").lstrip().startswith("<svg")
    quoted = re.search(r'e\.g\. "(Draw\..*?)" for the second command', " ".join(section.split()))
    assert quoted is not None
    advise = shlex.split(lines[1].split("  #", 1)[0])[1:]
    result = CliRunner().invoke(main, advise)
    assert result.exit_code == 0 and result.stdout.splitlines()[0] == quoted.group(1)
