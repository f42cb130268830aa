"""The reference simulator: real shoes, rules as written, reproducible, faults on demand."""

from __future__ import annotations

import io
import json
from pathlib import Path

from click.testing import CliRunner

from analyzer.cli.commands import main
from analyzer.dealing.handlog import CARD_VALUE, Hand, ShoeEnd, ShoeStart, read_log
from analyzer.dealing.simulate import simulate
from tests.conftest import brute_force_deal


def run_log(tmp_path: Path, **kwargs: object) -> tuple[Path, object]:
    path = tmp_path / "log.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        summary = simulate("punto-banco", out=stream, **kwargs)  # type: ignore[arg-type]
    return path, summary


def test_seeded_runs_are_reproducible() -> None:
    logs = []
    for seed in (11, 11, 12):
        out = io.StringIO()
        simulate("punto-banco", decks=8, shoes=2, seed=seed, out=out)
        logs.append(out.getvalue())
    assert logs[0] == logs[1]
    assert logs[0] != logs[2]


def test_shoes_are_burned_cut_and_dealt_by_the_rules(tmp_path: Path) -> None:
    path, summary = run_log(tmp_path, decks=8, shoes=3, seed=5)
    records = list(read_log(path))
    starts = [r for r in records if isinstance(r, ShoeStart)]
    ends = [r for r in records if isinstance(r, ShoeEnd)]
    hands = [r for r in records if isinstance(r, Hand)]
    assert len(starts) == len(ends) == 3 and len(hands) == summary.hands  # type: ignore[attr-defined]
    for start in starts:  # the first card is exposed and that many more burned (tens: 10)
        assert len(start.burn) == 1 + (CARD_VALUE[start.burn[0]] or 10)
    for end in ends:  # the cut card 16 from the end comes out in the last hand
        assert end.cards_left is not None and 16 - 6 < end.cards_left <= 16
    for hand in hands:
        p, b = hand.player_values, hand.banker_values
        dealt = (p[0], b[0], p[1], b[1], *p[2:], *b[2:], 0, 0)
        winner, player_total, banker_total, used = brute_force_deal(dealt)
        assert used == len(p) + len(b)
        assert winner == hand.outcome
        money = dict((bet, returned) for bet, _, returned in hand.bets)
        assert money["banker"] == {"banker": 195, "tie": 100, "player": 0}[winner]
        assert money["tie"] == (900 if winner == "tie" else 0)
    numbers = [h.hand for h in hands if h.shoe == "1"]
    assert numbers == list(range(1, len(numbers) + 1))


def test_faults_are_recorded_where_they_happen(tmp_path: Path) -> None:
    _, summary = run_log(tmp_path, decks=8, shoes=2, seed=3, faults=("banker-stands",))
    assert summary.faulted  # type: ignore[attr-defined]
    path, summary = run_log(tmp_path, decks=1, shoes=2, seed=3, faults=("missing-rank",))
    sevens = [c for r in read_log(path) if isinstance(r, Hand) for c in r.player + r.banker
              if CARD_VALUE[c] == 7]
    assert sevens == []


def test_cli_simulate_writes_csv(tmp_path: Path) -> None:
    out = tmp_path / "sim.csv"
    result = CliRunner().invoke(main, ["simulate", "--shoes", "1", "--seed", "4", "--decks",
                                       "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    header = out.read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("shoe,hand,player_cards,banker_cards,winner,burn,banker_stake")
    result = CliRunner().invoke(main, ["simulate", "--shoes", "1", "--seed", "4"])
    first = json.loads(result.stdout.splitlines()[0])
    assert first["type"] == "header" and first["seed"] == 4
