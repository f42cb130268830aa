"""The plain-Python tail probabilities against scipy.stats (relative 1e-12), and the verify
path without scipy."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
from scipy import stats

from analyzer.verify.inference.distributions import chi2_sf, norm_sf, poisson_cdf, poisson_sf


def _same(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or abs(a - b) <= 1e-12 * abs(b)


def test_chi2_and_normal_tails_match_scipy_stats() -> None:
    rng = np.random.default_rng(3)
    statistics = [0.0, -1.0, math.inf, 1e-300, 3.841458820694124, 2000.0, 1e5,
                  *rng.exponential(20, 300).tolist(), *(rng.normal(size=50) * 40).tolist()]
    for df in [0, 1, 2, 3, 12, 36, 39, 40, 41, 0.5, 1000, 20000,
               *rng.uniform(0.1, 80, 20).tolist()]:
        for x in statistics:
            assert _same(chi2_sf(x, df), float(stats.chi2.sf(x, df))), (x, df)
    for z in [0.0, 1.96, -1.96, 40.0, -40.0, math.nan, *(rng.normal(size=300) * 6).tolist()]:
        assert _same(norm_sf(z), float(stats.norm.sf(z))), z
    assert round(chi2_sf(3.841458820694124, 1), 9) == 0.05


def test_poisson_tails_match_scipy_stats() -> None:
    rng = np.random.default_rng(4)
    means = [0.0, 0.3, 9.58e3, 1.8e4, *rng.uniform(0, 60, 30).tolist()]
    counts = [-3, -1, 0, 1, 941, 9628, 18130, 2.5, -math.inf, math.inf,
              *rng.integers(0, 80, 40).tolist()]
    for mean in means:
        for k in counts:
            assert _same(poisson_sf(k, mean), float(stats.poisson.sf(k, mean))), (k, mean)
            assert _same(poisson_cdf(k, mean), float(stats.poisson.cdf(k, mean))), (k, mean)
    assert 0 < poisson_sf(9627, 9.58e3) < 1


def test_the_verify_path_imports_no_scipy() -> None:
    # (the kernels, loaded for large logs only, bring scipy's BLAS: numba needs it)
    code = ("import sys\nimport analyzer.verify.run, analyzer.cli.verify\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
