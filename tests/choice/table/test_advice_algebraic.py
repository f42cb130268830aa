"""``nine advise --decks 1 --people 5 --by total``: the table is certified with one irrational
subgame (2 live seats, the naturals 4+5 and 4+5 out). Elsewhere advice plays the certified
equilibrium's own fractions, labelled certified and exact; in that subgame it plays the
equilibrium's mixing rounded to 20 decimals, never called certified or exact."""

from __future__ import annotations

import json

from click.testing import CliRunner

from analyzer.cli.commands import main

ADVISE = ["advise", "--decks", "1", "--people", "5", "--by", "total"]
NAME = "lucky9-home-5-people-1-deck-by-total.json"


def _advise(*args: str) -> str:
    result = CliRunner().invoke(main, [*ADVISE, *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_advice_outside_the_irrational_subgame_is_certified_and_exact() -> None:
    out = _advise("--seat", "2", "--cards", "A 3", "--naturals", "3=45,4=36", "--earlier",
                  "stood", "--exact")
    assert "Certified equilibrium: no side gains by changing its play alone" in out
    assert "\nExact: play " in out and "not an equilibrium" not in out
    assert "/100000000000000000000" not in out  # no rounded play here
    found = json.loads(_advise("--seat", "2", "--cards", "A 3", "--naturals", "3=45,4=36",
                               "--earlier", "stood", "--format", "json"))
    assert found["certified"] is True and found["play"] == "equilibrium play"
    assert found["model"].startswith("the certified equilibrium at 1 deck by total (the "
                                     f"shipped certificate {NAME}; one other subgame's "
                                     "equilibrium is irrational, certified in QQ(alpha))")


def test_advice_in_the_irrational_subgame_is_the_rounded_play_never_exact() -> None:
    out = _advise("--seat", "2", "--cards", "A 3", "--naturals", "3=45,4=54", "--earlier",
                  "stood", "--exact")
    assert out.startswith("The certified equilibrium's play rounded to 20 decimals (this "
                          "subgame's mixing is irrational): Draw 22% of the time")
    assert ("Not certified: the certified equilibrium at 1 deck by total (the shipped "
            f"certificate {NAME}) mixes at irrational probabilities in this subgame (2 live "
            "seats, naturals 4+5 and 4+5 out, mixing at roots of an irreducible quartic)") in out
    assert "\nExact:" not in out and "Certified equilibrium" not in out
    assert ("\nAs fractions (exact against the play rounded as said, not the equilibrium's "
            "irrational values): play draw 21550676423306308767/100000000000000000000;") in out
    bank = _advise("--banker", "--cards", "3 3", "--choices", "stood,drew,natural,natural",
                   "--naturals", "3=45,4=54")
    assert bank.startswith("The certified equilibrium's play rounded to 20 decimals (this "
                           "subgame's mixing is irrational): Stand.")
    assert "Certified equilibrium" not in bank
