"""The tail probabilities the verifier's tests use, from :mod:`scipy.special`.

They are the functions ``scipy.stats`` evaluates for these distributions
(``chi2.sf`` is ``chdtrc``, ``poisson.sf`` and ``cdf`` are ``pdtrc`` and ``pdtr`` of the
floored count, ``norm.sf(x)`` is ``ndtr(-x)``), with its answers outside the support, without
importing ``scipy.stats`` (about a second at every start of ``nine verify``).
``tests/verify/inference/test_distributions.py`` checks them against ``scipy.stats``.

>>> round(chi2_sf(3.841458820694124, 1), 6), poisson_sf(-1, 2.0), round(norm_sf(0.0), 3)
(0.05, 1.0, 0.5)
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

__all__ = ["chi2_sf", "norm_sf", "poisson_cdf", "poisson_sf"]


def chi2_sf(statistic: float, df: float) -> float:
    """``scipy.stats.chi2.sf(statistic, df)``."""
    if not df > 0 or math.isnan(statistic):
        return math.nan
    if statistic <= 0:
        return 1.0
    return float(special.chdtrc(df, statistic))


def poisson_sf(observed: float, mean: float) -> float:
    """``scipy.stats.poisson.sf(observed, mean)``: P(X > observed)."""
    if not mean >= 0 or math.isnan(observed):
        return math.nan
    if observed < 0:
        return 1.0
    if observed == math.inf:
        return 0.0
    return float(special.pdtrc(np.floor(observed), mean))


def poisson_cdf(observed: float, mean: float) -> float:
    """``scipy.stats.poisson.cdf(observed, mean)``: P(X <= observed)."""
    if not mean >= 0 or math.isnan(observed):
        return math.nan
    if observed < 0:
        return 0.0
    if observed == math.inf:
        return 1.0
    return float(special.pdtr(np.floor(observed), mean))


def norm_sf(z: float) -> float:
    """``scipy.stats.norm.sf(z)``."""
    return float(special.ndtr(-z))
