"""PNG pictures for EV by hand number with the betting window, and removal effects.

matplotlib is the optional extra ``plot``; every table works without it.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError
from analyzer.outputs import check_output_path, write_file

if TYPE_CHECKING:
    from analyzer.analysis.drift import ShoeRun
    from analyzer.analysis.removal import RemovalTable

__all__ = ["plot_removal", "plot_shoe", "SUIT_SYMBOLS"]

#: Suits drawn as their symbols on a bar chart's axis (the names run into each other).
SUIT_SYMBOLS = {"Spades": "\u2660", "Hearts": "\u2665", "Diamonds": "\u2666", "Clubs": "\u2663"}


def _save(plt: Any, figure: Any, path: str | Path) -> Path:
    """Write the figure as a PNG through the output layer (whole or not at all)."""
    target = check_output_path(path)
    buffer = io.BytesIO()
    figure.savefig(buffer, dpi=110, format="png")
    plt.close(figure)
    write_file(target, buffer.getvalue())
    return target


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise AnalyzerError("--plot needs matplotlib: pip install 'nine-analyzer[plot]'") from None
    return plt


def _layout(figure: Any, title: str, rows: int, columns: int, *, left: float = 0.75,
            right: float = 0.2, top: float = 0.7, bottom: float = 0.55, across: float = 0.75,
            down: float = 0.7) -> None:
    """Margins and gaps fixed in inches (what ``tight_layout`` finds for these panels, without
    drawing the figure once more to measure it: that extra draw was half a plot's time)."""
    width, height = figure.get_size_inches()
    figure.suptitle(title, y=1 - 0.15 / height, verticalalignment="top")
    panel_width = (width - left - right - across * (columns - 1)) / columns
    panel_height = (height - top - bottom - down * (rows - 1)) / rows
    figure.subplots_adjust(left=left / width, right=1 - right / width,
                           top=1 - top / height, bottom=bottom / height,
                           wspace=across / panel_width, hspace=down / panel_height)


def plot_shoe(run: ShoeRun, path: str | Path, bet_ids: Sequence[str] = ()) -> Path:
    """EV by hand number (mean and 5th-95th percentile band) with each window marked."""
    plt = _pyplot()
    bets = [b for b in run.bets if not bet_ids or b.bet in bet_ids]
    if not bets:
        raise AnalyzerError("no bet to plot")
    columns = 2 if len(bets) > 1 else 1
    rows = (len(bets) + columns - 1) // columns
    figure, axes = plt.subplots(rows, columns, figsize=(6 * columns, 2.6 * rows), squeeze=False)
    for ax, bet in zip(axes.flat, bets, strict=False):
        hands = range(1, len(bet.mean) + 1)
        ax.fill_between(hands, [v * 100 for v in bet.p5], [v * 100 for v in bet.p95],
                        alpha=0.3, label="5th-95th percentile")
        ax.plot(hands, [v * 100 for v in bet.mean], label="mean")
        ax.plot(hands, [v * 100 for v in bet.p50], linestyle=":", label="median")
        ax.axhline(0, color="black", linewidth=0.6)
        if bet.window is not None:
            ax.axvline(bet.window + 0.5, color="red", linestyle="--",
                       label=f"window closes after hand {bet.window}")
            ax.axvspan(bet.window + 0.5, len(bet.mean), color="red", alpha=0.06)
        ax.set_title(bet.name, fontsize=9)
        ax.set_xlabel("hand number")
        ax.set_ylabel("EV %")
        ax.legend(fontsize=6)
    for ax in list(axes.flat)[len(bets):]:
        ax.set_visible(False)
    _layout(figure, f"{run.title}: EV before each hand, {run.shoes:,} shoes of {run.decks} "
                    "decks", rows, columns)
    return _save(plt, figure, path)


def plot_removal(result: RemovalTable, path: str | Path, bet_ids: Sequence[str] = ()) -> Path:
    """Bar chart of the effect of removing one card of each rank (and suit/colour) per bet."""
    plt = _pyplot()
    columns = [j for j, bet in enumerate(result.bet_ids) if not bet_ids or bet in bet_ids]
    if not columns:
        raise AnalyzerError("no bet to plot")
    groups = list(result.ranks) + (list(result.suits) + list(result.colours)
                                   if result.reads_suits else [])
    figure, axes = plt.subplots(len(columns), 1, figsize=(8, 2.2 * len(columns)), squeeze=False)
    for ax, j in zip(axes.flat, columns, strict=True):
        values = [float(g.effects[j]) * 100 for g in groups]
        ax.bar([SUIT_SYMBOLS.get(g.label, g.label) for g in groups], values,
               color=["tab:green" if v > 0 else "tab:red" for v in values])
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_title(result.bet_names[j], fontsize=9)
        ax.set_ylabel("EV change %/card", fontsize=7)
        ax.tick_params(labelsize=7)
    _layout(figure, f"{result.title}: effect of removing one card, {result.shoe}",
            len(columns), 1, left=0.85, bottom=0.35, down=0.5, top=0.6)
    return _save(plt, figure, path)
