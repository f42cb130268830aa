"""The bank's edge and the exact cost of simple rules."""

from __future__ import annotations

from fractions import Fraction

from analyzer.choice.table.costs import SIMPLE_RULES, bank_edge, rule_costs
from analyzer.choice.table.solve import solve_table
from analyzer.choice.table.tree import LUCKY9
from analyzer.rules.shoe import Shoe


def test_bank_edge_per_stake_and_per_rotation() -> None:
    table = solve_table(LUCKY9, Shoe.infinite(), 3, "total")
    edge = bank_edge(table)
    assert edge.people == 4 and edge.total == table.bank_value
    assert edge.per_stake == table.bank_value / 3
    assert edge.rotation_net == 0 and edge.rotation_banking == edge.total > 0


def test_heads_up_player_rules_cost_nothing_against_the_equilibrium_bank() -> None:
    """The equilibrium bank leaves the player indifferent on 5: either pure rule earns the
    equilibrium value, but the bank can exploit it."""
    table = solve_table(LUCKY9, Shoe.infinite(), 1, "total")
    costs = {(c.rule.side, c.rule.name): c for c in rule_costs(table)}
    for rule in SIMPLE_RULES:
        cost = costs[(rule.side, rule.name)]
        if rule.side == "player":
            assert cost.loss == 0 and cost.exploitability > 0
        else:
            assert cost.loss > 0 and cost.exploitability > 0


def test_a_bank_that_ignores_the_choices_is_worth_zero_to_a_best_responder() -> None:
    # Against a bank drawing on 0-5 whatever it sees, the players' best reply is the same
    # rule, and the game is then symmetric: the bank's value is exactly what they give up.
    table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    bank_rule = next(c for c in rule_costs(table) if c.rule.name == "draw on 0-5, stand on 6+")
    assert bank_rule.value == bank_rule.exploitability
    assert bank_rule.value < table.bank_value
    assert bank_rule.value > Fraction(0)
