"""The statistics of ``nine verify``: goodness-of-fit tests, Holm's adjustment, and power.

Per bet, the observed counts of its result lines are tested against the exact
probabilities by a G-test (Sokal & Rohlf, *Biometry*, 3rd ed. 1995, section 17.2, with a
Monte Carlo p-value when an expected count is below :data:`SMALL_EXPECTED`, Hope 1968,
JRSS B 30:582); in the shoe-aware model by a Wald chi-square under the summed conditional
covariance (:func:`wald_test`, Hall & Heyde, *Martingale Limit Theory*, 1980, ch. 3). All
p-values are adjusted together by Holm's step-down method (:func:`holm`, Holm 1979, Scand.
J. Statist. 6:65).

This module is the one owner of "hands needed": :func:`rtp_hands_needed` (and its inverse
:func:`detectable_error`) is the bet's own two-sided RTP z-test at ``alpha`` with power
:data:`POWER`; :func:`hands_needed` applies it to every bet of a profile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from analyzer.engine.lookup import build_model
from analyzer.engine.odds import odds
from analyzer.rules.profile import Profile
from analyzer.verify.inference.distributions import chi2_sf

__all__ = ["ALPHA", "detectable_error", "g_test", "hands_needed", "holm", "MONTE_CARLO_REPLICATES",
           "pearson", "POWER", "rtp_hands_needed", "SMALL_EXPECTED", "wald_test"]

#: Expected counts below this make the G-test use a Monte Carlo p-value.
SMALL_EXPECTED = 5.0
#: Monte Carlo replicates for small-count G-tests.
MONTE_CARLO_REPLICATES = 20_000
#: Power at which the detectable RTP error is reported.
POWER = 0.8
#: The one significance level of "hands to verify": the PAR sheets' and published sample
#: sizes' test level, and the default of ``nine verify --alpha``.
ALPHA = 0.01


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (Holm 1979), in the input order.

    >>> [round(p, 3) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def g_test(observed: Sequence[int], probabilities: Sequence[float],
           seed: int = 20240605) -> tuple[float, int, float, str]:
    """G statistic, degrees of freedom, p-value and method of a goodness-of-fit test.

    A category with probability zero that was observed makes the p-value zero. With an
    expected count below :data:`SMALL_EXPECTED` the p-value is Monte Carlo (seeded, so
    reproducible): the share of multinomial samples with a G at least as large.

    >>> g, df, p, method = g_test([50, 50], [0.5, 0.5])
    >>> g, df, p, method
    (0.0, 1, 1.0, 'G-test')
    """
    n = sum(observed)
    if any(o > 0 and p <= 0 for o, p in zip(observed, probabilities, strict=True)):
        return math.inf, len(observed) - 1, 0.0, "impossible result observed"
    cells = [(o, p) for o, p in zip(observed, probabilities, strict=True) if p > 0]
    df = len(cells) - 1
    if df < 1 or n == 0:
        return 0.0, max(df, 0), 1.0, "G-test"
    total_p = sum(p for _, p in cells)
    probs = np.array([p / total_p for _, p in cells])
    obs = np.array([o for o, _ in cells], dtype=np.float64)
    expected = n * probs

    def statistic(o: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(o > 0, o * np.log(o / expected), 0.0)
        result: npt.NDArray[np.float64] = 2.0 * terms.sum(axis=-1)
        return result

    g = float(statistic(obs))
    if expected.min() >= SMALL_EXPECTED:
        return g, df, chi2_sf(g, df), "G-test"
    rng = np.random.default_rng(seed)
    samples = rng.multinomial(n, probs, size=MONTE_CARLO_REPLICATES).astype(np.float64)
    at_least = int((statistic(samples) >= g - 1e-9).sum())
    return g, df, (at_least + 1) / (MONTE_CARLO_REPLICATES + 1), "G-test, Monte Carlo p"


def wald_test(observed: Sequence[float], expected: Sequence[float] | npt.NDArray[np.float64],
              covariance: npt.NDArray[np.float64]) -> tuple[float, int, float]:
    """Wald chi-square of observed minus expected counts under a summed covariance."""
    difference = np.asarray(observed, dtype=np.float64) - np.asarray(expected)
    values, vectors = np.linalg.eigh(covariance)
    keep = values > values.max() * 1e-10 if values.size and values.max() > 0 else values > 0
    if not keep.any():
        return 0.0, 0, 1.0
    projected = vectors[:, keep].T @ difference
    statistic = float((projected**2 / values[keep]).sum())
    df = int(keep.sum())
    return statistic, df, chi2_sf(statistic, df)


def pearson(observed: Sequence[float], expected: Sequence[float]) -> tuple[float, int, float]:
    """Pearson chi-square of observed against expected counts (cells expected 0 dropped).

    >>> pearson([10, 10], [10.0, 10.0])
    (0.0, 1, 1.0)
    """
    cells = [(o, e) for o, e in zip(observed, expected, strict=True) if e > 0]
    if any(o > 0 and e <= 0 for o, e in zip(observed, expected, strict=True)):
        return math.inf, len(cells) - 1, 0.0
    statistic = sum((o - e) ** 2 / e for o, e in cells)
    df = len(cells) - 1
    return statistic, df, chi2_sf(statistic, df) if df > 0 else 1.0


def _z_sum(alpha: float, power: float) -> float:
    return NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(power)


def rtp_hands_needed(sd: float, error: float = 0.001, alpha: float = ALPHA,
                     power: float = POWER) -> int:
    """Hands (at unit stake) for the bet's RTP z-test to detect an error of ``error``.

    The one definition used everywhere (``nine verify``'s report, :func:`hands_needed`,
    the README's table): the bet's own two-sided z-test at level ``alpha`` with power
    ``power``, ``n = ceil(((z_(1-alpha/2) + z_power) * SD / error)**2)``, SD per unit
    staked. It counts one test: with Holm's correction over many tests a run needs
    somewhat more hands for the same power.

    >>> rtp_hands_needed(0.9273664)  # Banker, 8 decks
    10044012
    """
    return math.ceil((_z_sum(alpha, power) * sd / error) ** 2)


def detectable_error(sd: float, hands: float, alpha: float = ALPHA,
                     power: float = POWER) -> float:
    """The smallest RTP error ``hands`` (effective, at unit stake) detect: the inverse of
    :func:`rtp_hands_needed`."""
    return _z_sum(alpha, power) * sd / math.sqrt(hands) if hands > 0 else math.inf


def hands_needed(profile: Profile | str = "punto-banco", decks: int | None = None,
                 error: float = 0.001, alpha: float = ALPHA,
                 power: float = POWER) -> dict[str, int]:
    """Hands each bet needs to detect an RTP error of ``error`` (:func:`rtp_hands_needed`
    with the bet's exact SD).

    >>> hands_needed("punto-banco", 8)["player"]
    10565864
    """
    model = build_model(profile, decks)
    table = odds(model.profile, model.shoe)
    return {bet.id: rtp_hands_needed(bet.sd, error, alpha, power) for bet in table.bets}
