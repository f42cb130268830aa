"""A corpus of third-party log shapes made from the project's own simulator by converters
written here (no hand-edited files): each header spelling verified correct (exit 0, its
columns listed) and with a payout fault behind it (Banker paid 1:1: exit 3); every known
column dropped in turn is named in the report (ignored or not checked), never a silent
PASS; refusals are one line, exit 2."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest

from tests.verify.conftest import cli, csv_rows, write_log, write_rows

Rows = list[list[str]]
MONEY = ("banker_stake", "banker_returned", "player_stake", "player_returned", "tie_stake",
         "tie_returned")


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Rows:
    path = tmp_path_factory.mktemp("corpus") / "sim.csv"
    write_log(path, shoes=3, seed=1, fmt="csv")
    return csv_rows(path)


def banker_paid_even(rows: Rows) -> Rows:
    """The fault: every Banker win paid 1:1 (200 back on 100, not 195)."""
    at = rows[0].index("banker_returned")
    out = [rows[0]]
    for row in rows[1:]:
        row = list(row)
        if row[at] == "195":
            row[at] = "200"
        out.append(row)
    return out


def renamed(names: dict[str, str]) -> Callable[[Rows], Rows]:
    def convert(rows: Rows) -> Rows:
        return [[names.get(h, h) for h in rows[0]], *rows[1:]]
    return convert


def amounts(write: Callable[[str], str], names: dict[str, str]) -> Callable[[Rows], Rows]:
    """Money cells rewritten (``write`` of the minor-unit text), headers renamed."""
    def convert(rows: Rows) -> Rows:
        money = [rows[0].index(h) for h in MONEY]
        body = [[write(c) if i in money and c else c for i, c in enumerate(r)]
                for r in rows[1:]]
        return [[names.get(h, h) for h in rows[0]], *body]
    return convert


def profit(rows: Rows) -> Rows:
    """Per bet its stake and its profit (returned less stake), under dotted names."""
    header = rows[0]
    out = [[{"banker_stake": "banker.amount", "banker_returned": "banker.pnl",
             "player_stake": "player.amount", "player_returned": "player.pnl",
             "tie_stake": "tie.amount", "tie_returned": "tie.pnl"}.get(h, h) for h in header]]
    for row in rows[1:]:
        row = list(row)
        for bet in ("banker", "player", "tie"):
            s, r = header.index(f"{bet}_stake"), header.index(f"{bet}_returned")
            row[r] = str(int(row[r]) - int(row[s]))
        out.append(row)
    return out


def bet_a_row(rows: Rows) -> Rows:
    """One bet a row (pybaccarat-style drivers): three rows a hand, the bet named."""
    header = rows[0]
    keep = [i for i, h in enumerate(header) if h not in MONEY]
    out = [[*(header[i] for i in keep), "bet_on", "amount", "payout"]]
    for row in rows[1:]:
        for bet in ("Banker", "Player", "Tie"):
            stake = row[header.index(f"{bet.lower()}_stake")]
            back = row[header.index(f"{bet.lower()}_returned")]
            out.append([*(row[i] for i in keep), bet, stake, back])
    return out


def as_major(text: str) -> str:
    return f"{Decimal(text) / 100:.2f}"


SPELLINGS: dict[str, Callable[[Rows], Rows]] = {
    "title-case": renamed({"shoe": "Shoe No", "hand": "Round", "player_cards": "Player Cards",
                           "banker_cards": "Banker Cards", "winner": "Winner",
                           "banker_stake": "Banker Stake", "banker_returned": "Banker Returned",
                           "player_stake": "Player Stake", "player_returned": "Player Returned",
                           "tie_stake": "Tie Stake", "tie_returned": "Tie Returned"}),
    "qa-export": renamed({"banker_stake": "BankBet", "banker_returned": "BankWin",
                          "player_stake": "PlayerBet", "player_returned": "PlayerWin",
                          "tie_stake": "TieBet", "tie_returned": "TieWin"}),
    "letters": renamed({"banker_stake": "B_Wager", "banker_returned": "B_Payout",
                        "player_stake": "P_Wager", "player_returned": "P_Payout",
                        "tie_stake": "T_Wager", "tie_returned": "T_Payout"}),
    "profit": profit,
    "decimals": amounts(as_major, {"banker_stake": "Bank Stake", "banker_returned": "Bank Paid"}),
    "float-text": amounts(lambda t: f"{t}.0", {}),
    "bet-a-row": bet_a_row,
}


def write_jsonl(path: Path, rows: Rows) -> None:
    """The same hands as JSON Lines, amounts in major units as JSON decimals."""
    header = rows[0]
    lines = []
    for row in rows[1:]:
        cell = dict(zip(header, row, strict=True))
        bets = {bet: [float(Decimal(cell[f"{bet}_stake"]) / 100),
                      float(Decimal(cell[f"{bet}_returned"]) / 100)]
                for bet in ("banker", "player", "tie")}
        lines.append(json.dumps({"shoe": cell["shoe"], "hand": int(cell["hand"]),
                                 "player": cell["player_cards"], "banker": cell["banker_cards"],
                                 "outcome": cell["winner"], "burn": cell["burn"],
                                 "bets": bets}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def verify_json(path: Path, *extra: str) -> tuple[int, dict[str, object]]:
    code, out, err = cli("verify", str(path), "--jobs", "1", "--format", "json", *extra)
    assert out, err
    return code, json.loads(out)


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_each_header_spelling_is_checked_and_catches_a_payout_fault(
        simulated: Rows, tmp_path: Path, spelling: str) -> None:
    convert = SPELLINGS[spelling]
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    write_rows(good, convert(simulated))
    write_rows(bad, convert(banker_paid_even(simulated)))
    code, report = verify_json(good)
    assert code == 0, report["not_checked"]
    columns = report["columns"]
    assert isinstance(columns, dict) and columns["ignored"] == []
    meanings = set(columns["used"].values())
    assert ({"stake", "returned", "bet named"} <= meanings if spelling == "bet-a-row"
            else {"banker stake", "player stake", "tie stake"} <= meanings)
    assert not [n for n in report["not_checked"] if n["what"] == "payouts"]  # type: ignore
    code, report = verify_json(bad)
    assert code == 3
    assert report["violations"]["by_kind"].get("payout", 0) > 0  # type: ignore[index]


def test_json_lines_decimal_amounts_are_exact(simulated: Rows, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    write_jsonl(good, simulated)
    write_jsonl(bad, banker_paid_even(simulated))
    code, report = verify_json(good)
    assert code == 0 and "bets" in report["columns"]["used"]  # type: ignore[index]
    code, report = verify_json(bad)
    assert code == 3
    # a non-integral amount the paytable cannot pay is a violation, not unusable input
    text = good.read_text(encoding="utf-8").replace('"player": [1.0, 2.0]',
                                                    '"player": [1.0, 2.05]', 1)
    good.write_text(text, encoding="utf-8")
    code, report = verify_json(good)
    assert code == 3 and report["malformed"]["count"] == 0  # type: ignore[index]


#: What the report must say when each column of the simulator's CSV is dropped.
DROPPED = {
    "winner": "outcomes", "burn": "burn", "banker_stake": "payouts",
    "banker_returned": "payouts", "player_stake": "payouts", "player_returned": "payouts",
    "tie_stake": "payouts", "tie_returned": "payouts",
}


@pytest.mark.parametrize("column", ["shoe", "hand", "player_cards", "banker_cards",
                                    *DROPPED])
def test_dropping_any_column_is_never_a_silent_pass(simulated: Rows, tmp_path: Path,
                                                    column: str) -> None:
    at = simulated[0].index(column)
    log = tmp_path / "dropped.csv"
    write_rows(log, [row[:at] + row[at + 1:] for row in simulated])
    code, out, err = cli("verify", str(log), "--jobs", "1")
    if column in ("player_cards", "banker_cards"):  # nothing to replay: refused
        assert code == 2 and out == "" and err.count("\n") == 1
        assert f"missing column {column!r}" in err and "line 1" in err
        return
    _, report = verify_json(log)
    assert column not in report["columns"]["used"]  # type: ignore[index]
    partner = {"stake": "returned", "returned": "stake"}
    what = DROPPED.get(column)
    if what is None:  # shoe or hand: shoes still told apart (hand numbers, burns)
        assert report["whole_shoes"] == 3 and code == 0
        return
    said = [n["why"] for n in report["not_checked"] if n["what"] == what]  # type: ignore
    assert said, report["not_checked"]
    head = out.splitlines()[:3]
    assert any(line.startswith("PASS - ") and f"{what} NOT checked" in line for line in head)
    if what == "payouts":  # the lone partner is listed as ignored, and the bet is named
        bet, kind = column.split("_")
        assert report["columns"]["ignored"] == [f"{bet}_{partner[kind]}"]  # type: ignore
        assert f"bet {bet}" in said[0]
    code, report = verify_json(log, "--require", f"{what},shoes")
    assert code == 4 and report["required_not_checked"] == [what]


def test_without_money_or_outcome_columns_the_report_says_so_everywhere(
        simulated: Rows, tmp_path: Path) -> None:
    keep = [i for i, h in enumerate(simulated[0]) if h not in (*MONEY, "winner")]
    log = tmp_path / "cards-only.csv"
    write_rows(log, [[row[i] for i in keep] + ["x"] for row in simulated[:1]]
               + [[row[i] for i in keep] + ["7"] for row in simulated[1:]])
    junit = tmp_path / "report.xml"
    code, out, _ = cli("verify", str(log), "--jobs", "1", "--junit", str(junit))
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "PASS - payouts NOT checked: no stake and returned (or profit) columns"
    assert lines[2].startswith("PASS - outcomes NOT checked: no outcome column")
    assert "Columns ignored: x" in out
    _, markdown, _ = cli("verify", str(log), "--jobs", "1", "--format", "markdown")
    assert "- PASS - payouts NOT checked" in markdown
    xml = junit.read_text(encoding="utf-8")
    assert '<testcase classname="nine.verify" name="not checked: payouts" time="0">' \
           '<skipped message="payouts NOT checked: no stake' in xml
    assert 'timestamp="' in xml and ' time="' in xml.split("\n")[1]
    assert "<system-out>used: shoe -&gt; shoe id" in xml and "ignored: x" in xml
    assert xml.count("<system-out>") == xml.count("<testcase ")
    code, _, _ = cli("verify", str(log), "--jobs", "1", "--require", "payouts",
                     "--junit", str(junit))
    assert code == 4 and '<failure message="required: payouts NOT checked' in \
        junit.read_text(encoding="utf-8")
    code, _, err = cli("verify", str(log), "--require", "everything")
    assert code == 2 and "--require 'everything': unknown check" in err
    assert err.count("\n") == 1


def test_a_log_that_is_not_a_baccarat_log_is_one_line(tmp_path: Path) -> None:
    log = tmp_path / "prices.csv"
    log.write_text("date;open;close\n2024-01-02;10;11\n", encoding="utf-8")
    code, out, err = cli("verify", str(log))
    assert code == 2 and out == "" and err.count("\n") == 1
    # its ';' is told from the header: read as three columns, none of a hand log
    assert "line 1" in err and "not a hand log" in err and "(date, open, close)" in err
    assert "--column" not in err


#: File layouts of the same rows: separator, line end, byte-order mark, quoting.
LAYOUTS: dict[str, tuple[str, str, bool, int]] = {
    "comma": (",", "\n", False, csv.QUOTE_MINIMAL), "tab": ("\t", "\n", False, csv.QUOTE_MINIMAL),
    "semicolon": (";", "\n", False, csv.QUOTE_MINIMAL),
    "crlf-bom": (",", "\r\n", True, csv.QUOTE_MINIMAL),
    "quoted": (",", "\n", False, csv.QUOTE_ALL),
}


@pytest.mark.parametrize(("spelling", "layout"), [
    *((s, "comma") for s in sorted(SPELLINGS)), *(("title-case", k) for k in LAYOUTS)])
def test_the_column_wise_path_and_the_record_path_agree(
        simulated: Rows, tmp_path: Path, spelling: str, layout: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every dialect and layout, clean and with a payout fault: the same report from the
    column-wise path (where it covers the log) and the record-by-record reference."""
    delimiter, end, bom, quoting = LAYOUTS[layout]
    for name, rows in (("good", simulated), ("bad", banker_paid_even(simulated))):
        log = tmp_path / f"{name}.{'tsv' if delimiter == chr(9) else 'csv'}"
        with log.open("w", encoding="utf-8-sig" if bom else "utf-8", newline="") as stream:
            csv.writer(stream, delimiter=delimiter, lineterminator=end,
                       quoting=quoting).writerows(SPELLINGS[spelling](rows))
        fast = verify_json(log)
        monkeypatch.setenv("NINE_VERIFY_PATH", "records")
        reference = verify_json(log)
        monkeypatch.delenv("NINE_VERIFY_PATH")
        assert fast == reference
        assert fast[0] == (0 if name == "good" else 3)
