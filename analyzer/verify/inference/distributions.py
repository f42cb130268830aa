"""The tail probabilities the verifier's tests use, in plain Python (no scipy on the path).

``scipy.stats`` evaluates these distributions through the regularized incomplete gamma
function (``chi2.sf(x, df)`` is Q(df/2, x/2); ``poisson.sf(k, m)`` is P(k+1, m) and
``poisson.cdf(k, m)`` Q(k+1, m) of the floored count; ``norm.sf(z)`` is ``erfc(z/sqrt 2)/2``).
They are computed here by its series and continued fraction (Numerical Recipes' ``gser`` and
Lentz's ``gcf``), with scipy's answers outside the support: importing ``scipy.special``
alone costs about half a second and 24 MB at every start of ``nine verify``.
``tests/verify/inference/test_distributions.py`` checks them against ``scipy.stats`` (to a
relative 1e-9, about 1e-14 where the shape is below a few hundred).

>>> round(chi2_sf(3.841458820694124, 1), 6), poisson_sf(-1, 2.0), round(norm_sf(0.0), 3)
(0.05, 1.0, 0.5)
"""

from __future__ import annotations

import math

__all__ = ["chi2_sf", "norm_sf", "poisson_cdf", "poisson_sf"]

_EPSILON = 1e-17
_TINY = 1e-300
#: Enough terms for the series and the fraction up to a shape of about 10**9.
_STEPS = 1_000_000


def _prefactor(a: float, x: float) -> float:
    """``x**a e**-x / Gamma(a)``; from shape 20 on by Stirling's series for ``Gamma(a)`` with
    ``a (log1p(t) - t)``, ``t = x/a - 1``, in the exponent (no cancellation of large terms)."""
    if a < 20:
        return math.exp(a * math.log(x) - x - math.lgamma(a))
    t = (x - a) / a
    stirling = (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * a * a)) / (a * a)) / (a * a)) / a
    power = a * (math.log1p(t) - t) if abs(t) < 0.5 else a * (math.log(x) - math.log(a)) + a - x
    return math.exp(power - stirling) * math.sqrt(a / (2 * math.pi))


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (fast for ``x < a + 1``)."""
    term = total = 1.0 / a
    shape = a
    for _ in range(_STEPS):
        shape += 1.0
        term *= x / shape
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * _prefactor(a, x)


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, Lentz's method (fast for ``x >= a + 1``)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _STEPS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < _EPSILON * 4:
            break
    return _prefactor(a, x) * h


def _upper(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x), ``a > 0``, ``x >= 0``."""
    if x <= 0:
        return 1.0
    if x == math.inf:
        return 0.0
    if x < a + 1.0:
        return 1.0 - _lower_series(a, x)
    return _upper_fraction(a, x)


def _lower(a: float, x: float) -> float:
    """The regularized lower incomplete gamma function P(a, x), ``a > 0``, ``x >= 0``."""
    if x <= 0:
        return 0.0
    if x == math.inf:
        return 1.0
    if x < a + 1.0:
        return _lower_series(a, x)
    return 1.0 - _upper_fraction(a, x)


def chi2_sf(statistic: float, df: float) -> float:
    """``scipy.stats.chi2.sf(statistic, df)``."""
    if not df > 0 or math.isnan(statistic):
        return math.nan
    if statistic <= 0:
        return 1.0
    return min(1.0, max(0.0, _upper(df / 2.0, statistic / 2.0)))


def poisson_sf(observed: float, mean: float) -> float:
    """``scipy.stats.poisson.sf(observed, mean)``: P(X > observed)."""
    if not mean >= 0 or math.isnan(observed):
        return math.nan
    if observed < 0:
        return 1.0
    if observed == math.inf:
        return 0.0
    return min(1.0, max(0.0, _lower(math.floor(observed) + 1.0, mean)))


def poisson_cdf(observed: float, mean: float) -> float:
    """``scipy.stats.poisson.cdf(observed, mean)``: P(X <= observed)."""
    if not mean >= 0 or math.isnan(observed):
        return math.nan
    if observed < 0:
        return 0.0
    if observed == math.inf:
        return 1.0
    return min(1.0, max(0.0, _upper(math.floor(observed) + 1.0, mean)))


def norm_sf(z: float) -> float:
    """``scipy.stats.norm.sf(z)``."""
    if math.isnan(z):
        return math.nan
    return 0.5 * math.erfc(z / math.sqrt(2.0))
