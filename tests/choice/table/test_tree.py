"""The extensive form: trees, the solver's arrays compiled from them, Gambit export, and the
brute-force checks on the tree (independent of the subgame decomposition)."""

from __future__ import annotations

import importlib.util
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.choice.headsup.solver import solve
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.strategy import tree_behaviour
from analyzer.choice.table.tree import (
    LUCKY9,
    compile_pair,
    pair_tree,
    table_tree,
    to_efg,
    tree_best_response,
    tree_values,
)
from analyzer.errors import AnalyzerError
from analyzer.rules.cards import parse_cards
from analyzer.rules.shoe import Shoe

#: Thirteen cards, five point values: every three-person deal of it can be listed.
TINY = Shoe.from_cards(parse_cards("TS TH TD TC 5S 5H 4S 4H 9S 9H 3C 3D 6C"), "tiny shoe")


def _chance_sums(tree: object) -> set[Fraction]:
    graph = tree.graph  # type: ignore[attr-defined]
    return {sum((graph.edges[n, c]["probability"] for c in graph.successors(n)), Fraction(0))
            for n in graph.nodes if graph.nodes[n]["kind"] == "chance"}


def test_chance_probabilities_sum_to_one() -> None:
    assert _chance_sums(pair_tree(LUCKY9, Shoe.infinite(), "total")) == {Fraction(1)}
    assert _chance_sums(pair_tree(LUCKY9, TINY, "cards")) == {Fraction(1)}


def test_compiled_pair_arrays_hold_the_deal_and_the_results() -> None:
    pair = compile_pair(pair_tree(LUCKY9, Shoe.infinite(), "total"))
    assert sum(sum(row) for row in pair.weight) == 1
    five, six = 5, 6
    assert pair.weight[six][five] == Fraction(16, 169) ** 2
    # Standing 5 against a standing 6 always loses; a natural bank leaves no decision.
    assert pair.result[six][five][0][0] == -1
    assert pair.result[9][five] is None


def test_efg_export_is_exact_and_complete() -> None:
    text = to_efg(pair_tree(LUCKY9, Shoe.infinite(), "total"))
    lines = text.splitlines()
    assert lines[0] == ('EFG 2 R "home Lucky 9, 2 people, infinite deck, by total" '
                        '{ "seat 1" "bank" }')
    assert '"0" 25/169' in lines[3]
    assert sum(1 for line in lines if line.startswith("t ")) == 10 + 9 * (1 + 9 * 4)
    assert 'p "" 2 1 "bank 0 - S" { "stand" "draw" } 0' in lines


def test_whole_table_tree_refuses_an_oversized_export() -> None:
    with pytest.raises(AnalyzerError, match="400,000 nodes"):
        table_tree(LUCKY9, Shoe.infinite(), 4, "total")


@pytest.mark.parametrize(("shoe", "players", "by"), [
    (Shoe.infinite(), 1, "total"), (Shoe.infinite(), 2, "total"), (TINY, 2, "cards")])
def test_brute_force_on_the_tree_confirms_the_certified_equilibrium(
        shoe: Shoe, players: int, by: str) -> None:
    """Values and best responses read off the whole tree -- no subgames, no CFR, no
    modular arithmetic -- agree with the solver: every side's regret is exactly 0."""
    table = solve_table(LUCKY9, shoe, players, by)
    tree = table_tree(LUCKY9, shoe, players, by)
    profile = tree_behaviour(table, tree)
    values = tree_values(tree, profile)
    assert values[:players] == table.seat_values
    assert values[-1] == table.bank_value
    for side in range(players + 1):
        best, _ = tree_best_response(tree, profile, side)
        assert best == values[side]


def test_the_tree_catches_a_deviation() -> None:
    table = solve_table(LUCKY9, Shoe.infinite(), 1, "total")
    tree = pair_tree(LUCKY9, Shoe.infinite(), "total")
    profile = tree_behaviour(table, tree)
    profile[0] = {key: Fraction(int(key[1] in "01234")) for key in profile[0]}  # stand on 5
    values = tree_values(tree, profile)
    assert tree_best_response(tree, profile, 1)[0] > values[1]


def _gambit_missing() -> bool:
    return importlib.util.find_spec("pygambit") is None


@pytest.mark.skipif(_gambit_missing(), reason="pygambit is not installed (pip install "
                    "nine-analyzer[test]); the Gambit cross-check needs it")
@pytest.mark.parametrize(("shoe", "by"), [(Shoe.infinite(), "total"), (Shoe.decks(1), "cards")])
def test_gambit_confirms_the_heads_up_value_and_zero_regret(tmp_path: Path, shoe: Shoe,
                                                            by: str) -> None:
    import pygambit

    tree = pair_tree(LUCKY9, shoe, by)
    path = tmp_path / "heads-up.efg"
    path.write_text(to_efg(tree), encoding="utf-8")
    game = pygambit.read_efg(str(path))
    table = solve_table(LUCKY9, shoe, 1, by)
    behaviour = tree_behaviour(table, tree)
    profile = game.mixed_behavior_profile(rational=True)
    for index, name in enumerate(tree.players):
        by_label = {" ".join(p for p in key if p): draw for key, draw in behaviour[index].items()}
        for infoset in game.players[name].infosets:
            draw = by_label[infoset.label]
            profile[infoset] = [1 - draw, draw]
    assert profile.payoff("seat 1") == table.seat_values[0] == solve(
        "lucky9-home", shoe, by).value
    # Every information set is reached, so zero regret at every one is a Nash equilibrium.
    assert all(profile.infoset_prob(i) > 0 for p in game.players for i in p.infosets)
    assert profile.agent_max_regret() == 0
