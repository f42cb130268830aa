"""Solving a payline's payout for a house edge: exact, verified against the engine."""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from click.testing import CliRunner

from analyzer.analysis.payout import neighbour_payouts, parse_edge, solve_payout
from analyzer.cli.commands import main
from analyzer.engine.odds import odds
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import PayLine, load_profile
from analyzer.rules.shoe import Shoe

EIGHT = Shoe.decks(8)


def edge_with(profile_name: str, bet_id: str, index: int, pays: Fraction) -> Fraction:
    profile = load_profile(profile_name)
    bet = profile.bet(bet_id)
    lines = list(bet.lines)
    lines[index] = PayLine(lines[index].name, lines[index].when, pays)
    changed = replace(bet, lines=tuple(lines))
    return odds(replace(profile, bets=(changed,)), EIGHT).bet(bet_id).house_edge


def test_the_current_edge_gives_back_the_current_payout() -> None:
    current = odds("side-bets", EIGHT).bet("dragon-bonus-player")
    solution = solve_payout("side-bets", "dragon-bonus-player", "non-natural win by 9",
                            current.house_edge, EIGHT)
    assert solution.payout == 30
    tie = odds("punto-banco", EIGHT).bet("tie")
    assert solve_payout("punto-banco", "tie", 1, tie.house_edge, EIGHT).payout == 8


@pytest.mark.parametrize("profile,bet,line", [
    ("punto-banco", "tie", 1),
    ("lucky-baccarat", "lucky-player-pair", 4),
    ("nine-and-nines", "nines", 5),
])
def test_solved_payout_gives_exactly_the_target_edge(profile: str, bet: str,
                                                     line: int) -> None:
    target = Fraction(1, 20)
    solution = solve_payout(profile, bet, line, target, EIGHT)
    assert solution.feasible
    assert edge_with(profile, bet, line - 1, solution.payout) == target


def test_a_payout_that_outranks_another_line_is_solved_on_the_right_piece() -> None:
    # raising "other pair of 4s" above 30 makes it outrank the 4D 4D line (highest rule)
    solution = solve_payout("lucky-baccarat", "lucky-player-pair", 2, Fraction(1, 20), EIGHT)
    assert solution.payout == Fraction(5245, 124)
    assert solution.probabilities[0] == 0 and solution.reordered
    assert edge_with("lucky-baccarat", "lucky-player-pair", 1, solution.payout) == Fraction(1, 20)


def test_ev_expression_is_the_bet_ev_in_its_line_payouts() -> None:
    solution = solve_payout("side-bets", "perfect-pair-both", 2, Fraction(1, 10), EIGHT)
    expression = sympy.sympify(solution.expression)
    x1, x2 = sympy.symbols("x1 x2")
    current = odds("side-bets", EIGHT).bet("perfect-pair-both")
    assert expression.subs({x1: 250, x2: 25}) == sympy.Rational(current.ev.numerator,
                                                                  current.ev.denominator)
    solved = expression.subs({x1: 250, x2: sympy.Rational(solution.payout.numerator,
                                                          solution.payout.denominator)})
    assert solved == sympy.Rational(-1, 10)


def test_an_edge_beyond_reach_gives_a_negative_infeasible_payout() -> None:
    solution = solve_payout("punto-banco", "tie", 1, Fraction(99, 100), EIGHT)
    assert solution.payout < 0 and not solution.feasible


def test_edges_parse_exactly_and_bad_input_is_refused() -> None:
    assert parse_edge("2.5%") == Fraction(1, 40)
    with pytest.raises(AnalyzerError, match="not a number"):
        parse_edge("lots")
    with pytest.raises(AnalyzerError, match="lines 1-4"):
        solve_payout("lucky-baccarat", "lucky-player-pair", 9, Fraction(0), EIGHT)
    with pytest.raises(AnalyzerError, match="no line 'jackpot'"):
        solve_payout("lucky-baccarat", "lucky-player-pair", "jackpot", Fraction(0), EIGHT)


def test_cli_solve_payout_in_every_format() -> None:
    runner = CliRunner()
    args = ["solve-payout", "--profile", "punto-banco", "--bet", "tie", "--line", "1",
            "--edge", "5%"]
    for fmt in ("text", "markdown", "csv", "latex", "html"):
        result = runner.invoke(main, [*args, "--format", fmt])
        assert result.exit_code == 0, result.output
        assert "22254431954453/2477226179548" in result.output, fmt
    result = runner.invoke(main, [*args, "--format", "json"])
    document = json.loads(result.output)
    assert document["payout"] == "22254431954453/2477226179548"
    assert document["lines"][0]["symbol"] == "x1"
    bad = runner.invoke(main, ["solve-payout", "--bet", "nope", "--line", "1", "--edge", "1%"])
    assert bad.exit_code == 2 and "no bet 'nope'" in bad.output


def _edge_from_file(tmp_path: Path, pays: Fraction) -> Fraction:
    """The Tie's house edge on 8 decks with ``pays``, from a profile file written with it."""
    path = tmp_path / f"tie-{pays.numerator}-{pays.denominator}.toml"
    path.write_text('base = "punto-banco"\nname = "t"\nbase_bets = []\n[[bets]]\nid = "tie"\n'
                    f'lines = [{{ name = "Tie", when = "winner == tie", pays = "{pays}" }}]\n',
                    encoding="utf-8")
    return odds(load_profile(path), EIGHT).bet("tie").house_edge


def test_the_neighbouring_whole_and_half_payouts_each_give_their_odds_edge(
        tmp_path: Path) -> None:
    solution = solve_payout("punto-banco", "tie", 1, Fraction(5, 100), EIGHT)
    assert [n.payout for n in solution.neighbours] == [8, Fraction(17, 2), 9, Fraction(19, 2)]
    assert [n.mark for n in solution.neighbours] == ["", "nearest below", "nearest above", ""]
    for neighbour in solution.neighbours:
        assert neighbour.edge == _edge_from_file(tmp_path, neighbour.payout)
    below, above = solution.neighbours[1:3]
    assert below.edge > solution.edge > above.edge  # the target lies between the two


def test_a_solution_on_the_grid_is_marked_exact() -> None:
    tie = odds("punto-banco", EIGHT).bet("tie")
    solution = solve_payout("punto-banco", "tie", 1, tie.house_edge, EIGHT)
    assert [(n.payout, n.mark) for n in solution.neighbours] == [
        (Fraction(15, 2), "nearest below"), (8, "exact"), (Fraction(17, 2), "nearest above")]
    assert neighbour_payouts(Fraction(1, 4)) == (Fraction(0), Fraction(1, 2), Fraction(1))


def test_given_payouts_are_tabulated_with_their_exact_edges(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["solve-payout", "--bet", "tie", "--line", "Tie",
                                       "--payouts", "8.5, 9,19/2", "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["payouts"]
    assert [r["payout"] for r in rows] == ["17/2", "9", "19/2"]
    for row in rows:
        assert Fraction(row["edge"]) == _edge_from_file(tmp_path, Fraction(row["payout"]))
    text = CliRunner().invoke(main, ["solve-payout", "--bet", "tie", "--line", "1", "--edge",
                                     "5%", "--payouts", "9"]).stdout
    assert "nearest above" in text and text.count("63053127805/1301666217579") == 2


@pytest.mark.parametrize(("args", "message"), [
    ([], "give --edge (a target house edge) or --payouts (a list)"),
    (["--payouts", "8,x"], "'x' is not a payout like 8, 8.5 or 17/2"),
    (["--payouts", "-3"], "'-3' is not a payout"),
    (["--payouts", ","], "give 1 to 50 payouts"),
    (["--payouts", "2000000"], "above 1,000,000 to 1"),
])
def test_bad_payout_options_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["solve-payout", "--bet", "tie", "--line", "1", *args])
    assert result.exit_code == 2 and message in result.stderr and result.stderr.count("\n") == 1


def test_a_misspelt_line_offers_the_nearest() -> None:
    with pytest.raises(AnalyzerError, match=r"no line 'Tei' \(did you mean tie\?\)"):
        solve_payout("punto-banco", "tie", "Tei", Fraction(1, 20), EIGHT)
