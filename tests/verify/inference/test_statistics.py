"""The statistics hold their alpha, and "hands needed" has one definition everywhere."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import binom

from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.verify.inference.statistics import (
    detectable_error,
    g_test,
    hands_needed,
    holm,
    pearson,
    rtp_hands_needed,
    wald_test,
)
from analyzer.verify.partial import BetTally, Partial
from analyzer.verify.run import collect, verify_logs
from analyzer.verify.verdict import EXIT_PASS, EXIT_STATISTICS, finish
from tests.verify.conftest import write_log


def test_false_alarm_rate_stays_within_alpha() -> None:
    """Null samples from the exact distribution: Holm-adjusted rejections <= alpha."""
    model = build_model("punto-banco", 8)
    table = odds(model.profile, model.shoe)
    probabilities = [[float(b.lose_probability), *(float(x.probability) for x in b.lines)]
                     for b in table.bets]
    rng = np.random.default_rng(7)
    runs, alarms = 400, {0.01: 0, 0.05: 0}
    hands = 20_000
    for _ in range(runs):
        coups = rng.multinomial(hands, [probabilities[1][1], probabilities[0][1],
                                        probabilities[2][1]])  # player, banker, tie wins
        player, banker, tie = (int(x) for x in coups)
        bets = (BetTally("banker", (player, banker, tie)),
                BetTally("player", (banker, player, tie)),
                BetTally("tie", (player + banker, tie)))
        partial = Partial("punto-banco", 8, "independent", ("null",), hands, 0, 0, 0, 0, (),
                          0, (), (), bets, (), counts_only=True)
        for alpha in alarms:
            alarms[alpha] += finish(partial, model, alpha).exit_code == EXIT_STATISTICS
    for alpha, count in alarms.items():
        assert count / runs <= alpha, (alpha, count)


def false_alarm_bound(runs: int, alpha: float, level: float = 0.001) -> int:
    """The most alarms ``runs`` null runs may raise at ``alpha`` before a one-sided binomial
    test rejects "the false-alarm rate is at most alpha" at ``level``."""
    return int(binom.ppf(1 - level, runs, alpha))


def test_seeded_simulator_logs_raise_no_false_alarms(tmp_path: Path) -> None:
    """The simulator's own logs (shoe-aware, the default model) alarm no more often than
    alpha allows: each run's sums are collected once and judged at three alphas."""
    runs = 100
    alarms = {0.01: 0, 0.05: 0, 0.10: 0}
    for seed in range(runs):
        path = tmp_path / f"null-{seed}.jsonl"
        write_log(path, shoes=2, seed=1000 + seed)
        partial, model = collect([str(path)])
        assert partial.model == "shoe"
        for alpha in alarms:
            code = finish(partial, model, alpha).exit_code
            assert code in (EXIT_PASS, EXIT_STATISTICS), (seed, alpha, code)
            alarms[alpha] += code == EXIT_STATISTICS
    for alpha, count in alarms.items():
        assert count <= false_alarm_bound(runs, alpha), (alpha, count, alarms)
    assert false_alarm_bound(runs, 0.01) <= 5  # the bound is tight enough to mean something


def test_the_tests_on_small_examples() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([]) == []
    g, df, p, method = g_test([3, 1, 0], [0.5, 0.3, 0.2])
    assert df == 2 and method == "G-test, Monte Carlo p" and 0 < p <= 1
    assert g_test([3, 1, 0], [0.5, 0.3, 0.2]) == (g, df, p, method)  # seeded
    assert g_test([1, 1], [1.0, 0.0])[2:] == (0.0, "impossible result observed")
    statistic, df, p = wald_test([12, 8], [10, 10], np.array([[5.0, -5.0], [-5.0, 5.0]]))
    assert (statistic, df) == (pytest.approx(0.8), 1) and p == pytest.approx(0.3711, abs=1e-4)
    assert wald_test([1, 2], [1, 2], np.zeros((2, 2))) == (0.0, 0, 1.0)
    assert pearson([12, 8], [10, 10])[:2] == (pytest.approx(0.8), 1)
    assert pearson([1, 1], [2, 0])[2] == 0.0


def test_detectable_error_is_the_inverse_of_hands_needed() -> None:
    sd = 0.9273664
    n = rtp_hands_needed(sd, 0.001)
    assert detectable_error(sd, n) <= 0.001 < detectable_error(sd, n - 1)
    assert detectable_error(sd, 0) == math.inf


def test_hands_needed_per_bet() -> None:
    needed = hands_needed("punto-banco", 8)
    assert needed["tie"] > needed["banker"] > 10_000_000
    # Player: SD**2 = P(no tie) - EV**2 = 0.9048440 - 0.0123508**2 (8 decks, nine odds)
    sd = math.sqrt(0.9048440 - 0.0123508**2)
    z = 2.5758293035489004 + 0.8416212335729143  # alpha 0.01 two-sided, power 0.8
    assert needed["player"] == pytest.approx((z * sd / 0.001) ** 2, rel=1e-5)


def test_hands_needed_is_one_definition_everywhere(clean_log: Path) -> None:
    for alpha in (0.01, 0.05):
        verdict = verify_logs([str(clean_log)], alpha=alpha)
        needed = hands_needed("punto-banco", 8, alpha=alpha)
        assert {b.id: b.hands_needed for b in verdict.bets} == needed
        for b in verdict.bets:  # underpowered exactly when the sample is below the figure
            assert b.underpowered == (b.hands < needed[b.id])
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| punto-banco \| (\w+)[^|]* \| ([\d,]+) \|$", readme, re.M))
    needed = hands_needed("punto-banco", 8)
    assert {k.lower(): int(v.replace(",", "")) for k, v in table.items()} == needed
