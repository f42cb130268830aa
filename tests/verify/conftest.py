"""Shared helpers of the verify tests: seeded simulator logs, the CLI, CSV row surgery."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.dealing.simulate import SimulationSummary, simulate
from analyzer.rules.cards import Card


def write_log(path: Path, shoes: int, seed: int, decks: int = 8,
              faults: tuple[str, ...] = (), fmt: str = "jsonl",
              profile: str = "punto-banco") -> SimulationSummary:
    with path.open("w", encoding="utf-8", newline="") as stream:
        return simulate(profile, decks=decks, shoes=shoes, seed=seed, out=stream,
                        fmt=fmt, faults=faults)


def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def split_log(log: Path, folder: Path) -> tuple[Path, Path]:
    """A JSON Lines log cut in two at a shoe record: a.jsonl and b.jsonl."""
    lines = log.read_text(encoding="utf-8").splitlines()
    cut = next(i for i, line in enumerate(lines) if '"type":"shoe"' in line and i > 10)
    first, second = folder / "a.jsonl", folder / "b.jsonl"
    first.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    return first, second


def csv_rows(path: Path) -> list[list[str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.reader(stream))


def write_rows(path: Path, rows: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as stream:
        csv.writer(stream, lineterminator="\n").writerows(rows)


def drop_columns(rows: list[list[str]], *names: str) -> list[list[str]]:
    keep = [i for i, name in enumerate(rows[0]) if name not in names]
    return [[row[i] for i in keep] for row in rows]


def banker_hand(bets: str, hand: int = 1) -> str:
    """A legal coup Banker wins on naturals (Player 0, Banker 9), with these bets."""
    return (f'{{"shoe": "1", "hand": {hand}, "player": ["Td", "Kd"], "banker": ["9s", "Ts"], '
            f'"outcome": "B", "bets": {bets}}}\n')


@pytest.fixture(scope="session")
def clean_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "clean.jsonl"
    write_log(path, shoes=12, seed=2024)
    return path


@pytest.fixture(scope="session")
def clean_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("csv") / "clean.csv"
    write_log(path, shoes=8, seed=77, fmt="csv")
    return path


def as_values(rows: list[list[str]]) -> list[list[str]]:
    """A CSV log of cards rewritten with point values only (tens and faces 0)."""
    header = rows[0]
    card_columns = [i for i, name in enumerate(header)
                    if name in ("player_cards", "banker_cards", "burn")]
    out = [header]
    for row in rows[1:]:
        row = list(row)
        for i in card_columns:
            row[i] = " ".join(str(Card.parse(token).points) for token in row[i].split())
        out.append(row)
    return out


def as_split_columns(rows: list[list[str]]) -> list[list[str]]:
    """A CSV log of cards with each hand's cards in three columns, pcard1..bcard3, and the
    outcome written as words ("Banker wins", "player win", "Tie")."""
    header = rows[0]
    player, banker = header.index("player_cards"), header.index("banker_cards")
    winner = header.index("winner")
    words = {"P": "player win", "B": "Banker wins", "T": "Tie"}
    keep = [i for i in range(len(header)) if i not in (player, banker)]
    out = [[header[i] for i in keep] + [f"pcard{n}" for n in (1, 2, 3)]
           + [f"bcard{n}" for n in (1, 2, 3)]]
    for row in rows[1:]:
        cells = [words.get(row[i], row[i]) if i == winner else row[i] for i in keep]
        for column in (player, banker):
            cards = row[column].split()
            cells += cards + [""] * (3 - len(cards))
        out.append(cells)
    return out
