"""PNG plots of a shoe run and of effects of removal (the optional ``plot`` extra)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from analyzer.analysis.drift import simulate_shoes
from analyzer.analysis.removal import removal_effects
from analyzer.errors import AnalyzerError
from analyzer.present.plots import plot_removal, plot_shoe

pytestmark = pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None,
                                reason="the plot extra is not installed")


def test_plots_write_pngs_of_the_chosen_bets(tmp_path: Path) -> None:
    run = simulate_shoes("punto-banco", 1, 2, seed=3)
    assert plot_shoe(run, tmp_path / "shoe.png", ("banker",)).read_bytes()[:4] == b"\x89PNG"
    effects = removal_effects("punto-banco", 1, 10, 1)
    assert plot_removal(effects, tmp_path / "eor.png").read_bytes()[:4] == b"\x89PNG"
    for plot, result in ((plot_shoe, run), (plot_removal, effects)):
        with pytest.raises(AnalyzerError, match="no bet to plot"):
            plot(result, tmp_path / "none.png", ("no-such-bet",))
