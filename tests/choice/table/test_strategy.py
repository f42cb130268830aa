"""Strategy files at a table: contexts, round trips, and the published equilibria of every
table size certified again from their files alone."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.choice.strategy import context_key, load_strategy, parse_strategy
from analyzer.choice.table.solve import Pattern, solve_table
from analyzer.choice.table.strategy import (
    bank_contexts,
    evaluate_strategies,
    seat_contexts,
    strategy_rules,
    table_strategy_text,
)
from analyzer.choice.table.tree import LUCKY9
from analyzer.errors import AnalyzerError
from analyzer.rules.shoe import Shoe

REFERENCE = Path(__file__).resolve().parents[2] / "reference" / "lucky9_tables"


def test_contexts_name_what_a_side_sees_most_specific_first() -> None:
    pattern = Pattern(None, (None, (0, 9), None, None), Fraction(0))
    assert seat_contexts(pattern, 2, 1) == [
        "seat 3: DN(T+9)/-", "seat 3: DN/-", "DN(T+9)/-", "DN/-", "seat 3: live:D+1",
        "live:D+1"]
    assert bank_contexts(pattern, 0b101) == ["DN(T+9)SD", "DNSD", "live:DSD", "drew"]


def test_context_keys_are_canonical() -> None:
    assert context_key("Seat 3: dn(9+t)/-", "player") == "seat 3: DN(T+9)/-"
    assert context_key("live: ds + 2", "player") == "live:DS+2"
    assert context_key("stood", "banker") is None and context_key("ndS", "banker") == "NDS"
    assert context_key("drew", "player") is None


def test_heads_up_files_read_as_before_and_contexts_refine_them() -> None:
    text = ('side = "banker"\n[draw]\n"0-5" = "draw"\n[draw.stood]\n"6" = "1/4"\n'
            '[draw."live:SS"]\n"6" = "3/4"\n[draw."live:D"]\n"5" = "stand"\n')
    rule = parse_strategy(text, "bank.toml", "banker")
    assert rule.draw((0, 6), "stood") == Fraction(1, 4)
    assert rule.draw((0, 5), "drew") == 0  # "live:D" is the heads-up "drew"
    assert rule.table_draw((0, 6), ["NSS", "live:SS"]) == Fraction(3, 4)
    with pytest.raises(AnalyzerError, match="keyed by what it sees"):
        parse_strategy('side = "player"\n[draw.stood]\n"5" = 1\n', "p.toml", "player")


@pytest.mark.parametrize("shoe", [Shoe.infinite(), Shoe.decks(1)])
def test_the_equilibrium_round_trips_through_files(shoe: Shoe) -> None:
    table = solve_table(LUCKY9, shoe, 2, "total")
    player = parse_strategy(table_strategy_text(table, "player"), "p", "player")
    banker = parse_strategy(table_strategy_text(table, "banker"), "b", "banker")
    assert player.players == 2
    found = evaluate_strategies(LUCKY9, shoe, 2, "total", player, banker)
    assert found.seats == table.seat_values and found.max_regret == 0
    seat_rule, bank_rule = strategy_rules(table, player, None)
    assert seat_rule is not None and bank_rule is None


def test_a_file_for_another_table_size_is_refused() -> None:
    table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    other = load_strategy(str(REFERENCE / "people-4-player.toml"), "player")
    with pytest.raises(AnalyzerError, match="written for 3 players, the table has 2"):
        strategy_rules(table, other, None)


@pytest.mark.parametrize("people", range(2, 10))
def test_every_table_size_is_certified_from_its_published_files(people: int) -> None:
    """The equilibria of 2 to 9 people (infinite deck, by total) as written by
    ``solve_table``: evaluated exactly from the files alone, no side can gain."""
    player = load_strategy(str(REFERENCE / f"people-{people}-player.toml"), "player")
    banker = load_strategy(str(REFERENCE / f"people-{people}-banker.toml"), "banker")
    found = evaluate_strategies(LUCKY9, Shoe.infinite(), people - 1, "total", player, banker)
    assert found.max_regret == 0
    assert found.bank == -sum(found.seats, Fraction(0)) > 0


def test_a_file_for_another_information_model_or_shoe_is_refused() -> None:
    """The mismatch named in one line: ``by`` and ``shoe`` as written by the solver."""
    table = solve_table(LUCKY9, Shoe.infinite(), 2, "total")
    text = table_strategy_text(table, "player")
    assert 'shoe = "infinite deck"' in text and 'by = "total"' in text
    parsed = parse_strategy(text, "seats.toml", "player")
    banker = parse_strategy(table_strategy_text(table, "banker"), "bank.toml", "banker")
    with pytest.raises(AnalyzerError, match=r'^seats.toml: written for by = "total", the '
                                            "table is played by cards$"):
        evaluate_strategies(LUCKY9, Shoe.infinite(), 2, "cards", parsed, banker)
    with pytest.raises(AnalyzerError, match=r'^seats.toml: written for shoe = "infinite deck"'
                                            r", the table is dealt from 1 deck \(delete"):
        evaluate_strategies(LUCKY9, Shoe.decks(1), 2, "total", parsed, banker)
    unsaid = parse_strategy(text.replace('shoe = "infinite deck"\n', ""), "seats.toml",
                            "player")
    bank_unsaid = parse_strategy(table_strategy_text(table, "banker").replace(
        'shoe = "infinite deck"\n', ""), "bank.toml", "banker")
    found = evaluate_strategies(LUCKY9, Shoe.decks(1), 2, "total", unsaid, bank_unsaid)
    assert found.max_regret > 0  # the infinite deck's play is not an equilibrium at 1 deck
