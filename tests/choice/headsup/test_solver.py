"""Heads-up choice games: certified exact equilibria, published results, independent checks."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from analyzer.choice.headsup import solver
from analyzer.choice.headsup.game import banker_vector, build_game, player_vector
from analyzer.choice.headsup.matrix_game import sequences
from analyzer.choice.headsup.solver import evaluate_game, solve, solve_game
from analyzer.choice.strategy import load_strategy
from analyzer.cli.commands import main
from analyzer.present.report.choice import render_evaluation
from analyzer.rules.cards import parse_cards
from analyzer.rules.choice_rules import ChoiceRules
from analyzer.rules.profile import load_profile
from analyzer.rules.shoe import Shoe

LUCKY9 = load_profile("lucky9-home").choice_rules()
CHEMIN = load_profile("chemin-de-fer").choice_rules()
#: A 12-card shoe: few information sets, every choice still matters.
TINY = Shoe.from_cards(parse_cards("TS TH JD KC 3S 3H 4S 4H 5S 5H 6S 6H"), "tiny shoe")


def test_kemeny_snell_player_draws_on_five_with_nine_elevenths() -> None:
    # Kemeny & Snell, Amer. Math. Monthly 64 (1957) 465-469 (tests/reference/kemeny_snell_1957.txt):
    # with replacement, totals only, Player draws on 5 with probability 9/11.
    result = solve(CHEMIN, Shoe.infinite(), "total")
    assert [(p.label, p.draw) for p in result.player] == [("5", Fraction(9, 11))]
    assert result.certificate.certified
    assert result.value == Fraction(-679568, 53094899)  # about -0.0128 per unit for Player


@pytest.mark.parametrize(("rules", "shoe", "by"), [
    (LUCKY9, Shoe.decks(1), "cards"),
    (LUCKY9, Shoe.decks(8), "cards"),
    (LUCKY9, Shoe.infinite(), "total"),
    (LUCKY9, Shoe.decks(2).remove(parse_cards("9S 9H 9D 5C")), "cards"),
    (CHEMIN, Shoe.decks(6), "cards"),
    (LUCKY9, TINY, "cards"),
])
def test_equilibria_have_zero_regret(rules: ChoiceRules, shoe: Shoe, by: str) -> None:
    game = build_game(rules, shoe, by)
    result = solve_game(game)
    assert result.certificate.certified
    assert result.certificate.gap == 0
    x = [p.draw for p in result.player]
    y = [b.draw for b in result.banker]
    evaluation = evaluate_game(game, x, y)
    # Neither side gains by deviating: both best responses give exactly the value.
    assert evaluation.value == result.value
    assert evaluation.player_best_response == result.value == evaluation.banker_best_response
    assert all(0 <= v <= 1 for v in x + y)


def test_lucky9_one_deck_by_cards_mixes() -> None:
    result = solve(LUCKY9, Shoe.decks(1), "cards")
    mixed = {p.label: p.draw for p in result.player if 0 < p.draw < 1}
    assert mixed == {"T+5": Fraction(863, 1200)}
    assert result.value == Fraction(-1163927, 134725500)


def _independent_value(rules: ChoiceRules, shoe: Shoe, game_x: dict[tuple[int, int], Fraction],
                       game_y: dict[tuple[tuple[int, int], str], Fraction]) -> Fraction:
    """The player's value by dealing every six-card sequence (docs/rules/lucky9-home.md)."""
    grid, ways, total = sequences(shoe)
    value = Fraction(0)
    for cards, weight in zip(grid.tolist(), ways.tolist(), strict=True):
        player, banker = sorted((cards[0], cards[2])), sorted((cards[1], cards[3]))
        p, b = sum(player) % 10, sum(banker) % 10
        if p in rules.naturals or b in rules.naturals:
            value += weight * ((p > b) - (p < b))
            continue
        draw = game_x[(player[0], player[1])]
        for took, chance in ((True, draw), (False, 1 - draw)):
            if not chance:
                continue
            final = (p + cards[4]) % 10 if took else p
            seen = ("drew" if rules.banker_sees == "choice" else str(cards[4])) if took \
                else "stood"
            third = cards[5] if took else cards[4]
            banker_draw = game_y[((banker[0], banker[1]), seen)]
            drawn = (b + third) % 10
            value += weight * chance * (banker_draw * ((final > drawn) - (final < drawn))
                                        + (1 - banker_draw) * ((final > b) - (final < b)))
    return value / total


@settings(max_examples=8, deadline=None)
@given(st.data())
def test_any_strategy_lies_between_best_responses(data: st.DataObject) -> None:
    game = build_game(LUCKY9, TINY, "cards")
    probability = st.fractions(min_value=0, max_value=1, max_denominator=12)
    x = [data.draw(probability) for _ in game.player_sets]
    y = [data.draw(probability) for _ in game.banker_cells]
    evaluation = evaluate_game(game, x, y)
    equilibrium = solve_game(game).value
    assert evaluation.banker_best_response <= evaluation.value <= evaluation.player_best_response
    assert evaluation.banker_best_response <= equilibrium <= evaluation.player_best_response
    # The exact value agrees with an independent deal of every card sequence.
    hands = [(a, b) for a in range(10) for b in range(a, 10)]
    player = dict.fromkeys(hands, Fraction(0))
    player.update({hand: draw for info, draw in zip(game.player_sets, x, strict=True)
                   for hand in info.hands})
    banker = {(hand, seen): Fraction(0) for hand in hands for seen in ("drew", "stood")}
    banker.update({(hand, cell.observation): draw
                   for cell, draw in zip(game.banker_cells, y, strict=True)
                   for hand in cell.hands})
    assert _independent_value(LUCKY9, TINY, player, banker) == evaluation.value


def test_house_rule_against_itself_is_fair_and_exploitable() -> None:
    game = build_game(LUCKY9, Shoe.decks(1), "cards")
    x = player_vector(load_strategy("house", "player"), game)
    y = banker_vector(load_strategy("house", "banker"), game)
    evaluation = evaluate_game(game, x, y)
    assert evaluation.value == 0  # same rule both sides, ties push: symmetric
    assert evaluation.player_regret == Fraction(310084, 114516675)
    assert evaluation.banker_regret == Fraction(1237841, 114516675)
    value = Fraction(-1163927, 134725500)
    assert evaluation.game_value == value
    assert evaluation.player_exploitability == value + Fraction(1237841, 114516675)
    assert evaluation.banker_exploitability == Fraction(310084, 114516675) - value


def test_cli_solve_json_and_text() -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "--profile", "lucky9-home", "--players", "1",
                                  "--decks", "1", "--by", "cards", "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["certified"] is True
    assert document["value"] == "-1163927/134725500"
    assert document["certificate"]["player"] == document["certificate"]["banker"]
    assert {"value", "certified", "player", "banker"} <= set(document)
    text = runner.invoke(main, ["solve", "--infinite", "--by", "total"]).stdout
    assert "draw 6/11" in text and "certified equilibrium" in text
    bad = runner.invoke(main, ["solve", "--players", "0"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1


def test_cli_evaluate_strategy_files(tmp_path: object) -> None:
    folder = Path(str(tmp_path))
    runner = CliRunner()
    saved = runner.invoke(main, ["solve", "--decks", "1", "--by", "cards",
                                 "--save-player", str(folder / "p.toml"),
                                 "--save-banker", str(folder / "b.toml")])
    assert saved.exit_code == 0, saved.output
    result = runner.invoke(main, ["evaluate", "--decks", "1", "--by", "cards", "--player",
                                  str(folder / "p.toml"), "--banker", str(folder / "b.toml"),
                                  "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["value"] == "-1163927/134725500"
    assert document["player_exploitability"] == "0" == document["banker_exploitability"]
    assert document["game_value"] == document["value"]


def test_uncertified_solutions_are_not_called_certified(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch) -> None:
    real = solver.solve_game

    def uncertified(game: object, title: str = "") -> solver.Equilibrium:
        found = real(game, title)  # type: ignore[arg-type]
        lower = found.certificate.banker_best_response
        return dataclasses.replace(found, certificate=solver.Certificate(lower + 1, lower))

    monkeypatch.setattr(solver, "solve_game", uncertified)
    monkeypatch.setattr(solver, "solve", lambda profile, shoe, by="cards": uncertified(
        build_game(LUCKY9, shoe, by)))
    # m3: evaluate_game flags a game value taken from an uncertified solution.
    game = build_game(LUCKY9, Shoe.infinite(), "total")
    x = [Fraction(int(info.total <= 4)) for info in game.player_sets]
    y = [Fraction(int(cell.total <= 4)) for cell in game.banker_cells]
    evaluation = evaluate_game(game, x, y)
    assert not evaluation.game_value_certified and evaluation.game_value_gap == 1
    text = render_evaluation(evaluation)
    assert "NOT certified" in text and "(certified equilibrium)" not in text
    assert json.loads(render_evaluation(evaluation, "json"))["game_value_certified"] is False
    # m2: the saved strategy files say so too.
    folder = Path(str(tmp_path))
    saved = CliRunner().invoke(main, ["solve", "--infinite", "--by", "total",
                                      "--save-player", str(folder / "p.toml")])
    assert saved.exit_code == 0, saved.output
    note = (folder / "p.toml").read_text(encoding="utf-8").splitlines()[0]
    assert "NOT certified" in note and ": certified equilibrium" not in note


# -- house rules (issue 20 section 4) -------------------------------------------------------
#: Each variant's payoffs written out here, apart from analyzer.rules.choice_rules: the
#: seat's net by (own total, bank total, own natural, bank natural).
HOUSE_NETS = {
    "lucky9-home": {"win": 1, "natural": 1, "tie": 0},
    "lucky9-bank-ties": {"win": 1, "natural": 1, "tie": -1},
    "lucky9-natural-pays-2": {"win": 1, "natural": 2, "tie": 0},
}


def _net(table: dict[str, int], own: int, bank: int, natural: bool, bank_natural: bool) -> int:
    if natural and not bank_natural:
        return table["natural"]
    if bank_natural and not natural:
        return -1
    return table["win"] if own > bank else -1 if own < bank else table["tie"]


def _independent_lp_value(name: str) -> float:
    """The heads-up value at the infinite deck, each side seeing its total, by a linear
    program built here from the payoff table: the player picks a draw probability x_s per
    non-natural total s; each banker cell (total b, saw drew/stood) answers with its better
    choice, so the value is the constant of the naturals plus the sum over cells of
    min(stand, draw), each linear in x: maximise sum t_c with t_c <= both."""
    nets = HOUSE_NETS[name]
    card = [4 / 13] + [1 / 13] * 9  # point values at the infinite deck
    total = [sum(card[a] * card[(t - a) % 10] for a in range(10)) for t in range(10)]
    constant = sum(total[s] * total[b] * _net(nets, s, b, s == 9, b == 9)
                   for s in range(10) for b in range(10) if s == 9 or b == 9)

    def showdown(s: int, b: int, drew: bool, bank_drew: bool) -> float:
        own = [(s + t) % 10 for t in range(10)] if drew else [s]
        own_p = card if drew else [1.0]
        theirs = [(b + u) % 10 for u in range(10)] if bank_drew else [b]
        theirs_p = card if bank_drew else [1.0]
        return sum(p * q * _net(nets, o, t, False, False) for o, p in zip(own, own_p, strict=True)
                   for t, q in zip(theirs, theirs_p, strict=True))

    live = range(9)
    rows: list[list[float]] = []
    bounds_rhs: list[float] = []
    n = len(live) + 2 * len(live)  # x_s, then t_c for cells (b, drew) and (b, stood)
    for b in live:
        for drew_cell, offset in ((True, 0), (False, 1)):
            c = len(live) + 2 * b + offset
            for bank_drew in (False, True):
                # t_c - sum_s coef_s x_s <= const_c
                row = [0.0] * n
                row[c] = 1.0
                rhs = 0.0
                for s in live:
                    weight = total[s] * total[b] * showdown(s, b, drew_cell, bank_drew)
                    if drew_cell:
                        row[s] -= weight
                    else:
                        row[s] += weight
                        rhs += weight
                rows.append(row)
                bounds_rhs.append(rhs)
    objective = [0.0] * len(live) + [-1.0] * (2 * len(live))
    result = linprog(objective, A_ub=rows, b_ub=bounds_rhs,
                     bounds=[(0, 1)] * len(live) + [(None, None)] * (2 * len(live)),
                     method="highs")
    assert result.status == 0
    return float(constant - result.fun)


@pytest.mark.parametrize("name", sorted(HOUSE_NETS))
def test_each_house_rule_value_matches_an_independent_lp(name: str) -> None:
    found = solve(load_profile(name).choice_rules(), Shoe.infinite(), "total")
    assert found.certificate.certified
    assert abs(float(found.value) - _independent_lp_value(name)) < 1e-9


def test_the_even_money_values_are_unchanged_to_the_last_digit() -> None:
    # the values published before payoffs became data (tables/lucky9, analyzer 0.1.0)
    assert solve(LUCKY9, Shoe.decks(1), "cards").value == Fraction(-1163927, 134725500)
    assert solve(LUCKY9, Shoe.infinite(), "total").value == Fraction(-456160, 53094899)


def test_a_natural_paying_two_changes_no_choice() -> None:
    # naturals settle before anyone chooses: the same play, the value up by the bonus
    home = solve(LUCKY9, Shoe.infinite(), "total")
    rules = load_profile("lucky9-natural-pays-2").choice_rules()
    bonus = solve(rules, Shoe.infinite(), "total")
    assert [c.draw for c in bonus.player] == [c.draw for c in home.player]
    assert [c.draw for c in bonus.banker] == [c.draw for c in home.banker]
    assert bonus.value - home.value == Fraction(16, 169) * Fraction(153, 169)
