"""The shipped certificates listed, and an epsilon-certificate in words and JSON: its epsilon
as the file states it, "not an equilibrium", never "regret 0", and who checks it again."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from analyzer.choice.table.dealt.wide import wide_table
from analyzer.choice.table.stored.certificate import (
    Certificate,
    certificate_text,
    read_certificate,
)
from analyzer.choice.table.tree import LUCKY9
from analyzer.present.certificates import render_certificates
from analyzer.present.report.lucky9 import epsilon_json, epsilon_sentence
from analyzer.rules.shoe import Shoe

ONE_DECK = Shoe.decks(1)


@pytest.fixture(scope="module")
def epsilon(tmp_path_factory: pytest.TempPathFactory) -> Certificate:
    """A 3-person table improved a little (not an equilibrium) written as a certificate."""
    table = wide_table(LUCKY9, ONE_DECK, 2, "total", iterations=3)
    path = tmp_path_factory.mktemp("certificates") / "lucky9-home-3-people-1-deck-by-total.json"
    path.write_text(certificate_text(table, LUCKY9, 1.0, "nine certify --people 3"))
    return read_certificate(path, LUCKY9, ONE_DECK, 3, "total")


def test_an_epsilon_certificate_in_words_states_its_epsilon_and_who_checks_it(
        epsilon: Certificate) -> None:
    assert not epsilon.certified and epsilon.max_regret > 0
    sentence = epsilon_sentence(epsilon)
    assert f"no side gains more than {float(epsilon.max_regret):.3g} of a stake" in sentence
    assert "not an equilibrium" in sentence and "regret 0" not in sentence
    assert "nine certify --check lucky9-home-3-people-1-deck-by-total.json" in sentence


def test_an_epsilon_certificate_in_json_agrees_with_its_file(epsilon: Certificate) -> None:
    document = epsilon_json(epsilon)
    assert document is not None
    assert document["certified"] is False and document["solved_at"] == "1 deck"
    assert Fraction(document["max_regret"]) == epsilon.max_regret
    assert document["epsilon"] == float(epsilon.max_regret)
    assert "exact" not in document["bank"]  # not computed by the command that reports it
    assert epsilon_json(None) is None


def test_the_list_gives_each_certificates_status(epsilon: Certificate) -> None:
    text = render_certificates((epsilon,), "markdown")
    assert f"epsilon {float(epsilon.max_regret):.3g}" in text
    listed = json.loads(render_certificates((epsilon,), "json"))["certificates"]
    assert [(c["people"], c["by"], c["certified"]) for c in listed] == [(3, "total", False)]
    assert Fraction(listed[0]["max_regret"]) == epsilon.max_regret
    assert listed[0]["file"] == Path(epsilon.path).name
