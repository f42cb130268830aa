"""Formatting results for people and programs: the one place that renders tables.

Every renderer takes a frozen result record and returns a string in one of the formats
``text``, ``markdown``, ``csv``, ``json``, ``latex`` or ``html`` (``render_X(record, fmt)``;
the ``X_json`` functions give the JSON document as a dict). One module per family of
results, mirroring the library's layers:

- :mod:`~analyzer.present.report.common`: fractions, payouts, percentages, tables;
- :mod:`~analyzer.present.report.odds`: ``nine odds`` and ``nine profiles``;
- :mod:`~analyzer.present.report.analysis`: ``nine formula``, ``solve-payout``, ``eor``,
  ``shoe``;
- :mod:`~analyzer.present.report.choice`: ``nine solve``, ``evaluate``, ``session``;
- :mod:`~analyzer.present.report.lucky9`: whole home Lucky 9 tables (``nine solve --players
  N``, its strategy cards, ``nine advise``, ``nine evaluate --players N``);
- :mod:`~analyzer.present.report.verify`: ``nine verify`` (and its JUnit report).

The PAR sheets and the published index are whole pages, laid out as blocks
(:mod:`~analyzer.present.report.blocks`) and written by
:mod:`~analyzer.present.report.par` and :mod:`~analyzer.present.report.par_choice` with
:mod:`~analyzer.present.report.html`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the lazy names are, for type checkers; imported on first use
    from analyzer.present.report.analysis import (
        COUNTER_RULE,
        formula_json,
        payout_edges_json,
        payout_json,
        removal_json,
        render_formula,
        render_payout,
        render_payout_edges,
        render_removal,
        render_shoe,
        shoe_json,
    )
    from analyzer.present.report.choice import (
        draw_text,
        equilibrium_json,
        render_equilibrium,
        render_evaluation,
        render_session,
        render_strategy_card,
        session_json,
    )
    from analyzer.present.report.common import (
        FORMATS,
        JSON,
        decimal_text,
        fraction_text,
        json_text,
        payout_text,
        percent,
        stable_floats,
        table,
        totals_text,
    )
    from analyzer.present.report.lucky9 import (
        advice_json,
        advice_sentence,
        clock_rule,
        epsilon_json,
        epsilon_sentence,
        play_sentence,
        render_advice,
        render_edges,
        render_table_cards,
        render_table_evaluation,
        render_table_summary,
        rounding_json,
        table_evaluation_json,
        table_summary_json,
    )
    from analyzer.present.report.odds import (
        odds_json,
        render_features,
        render_odds,
        render_profiles,
        summary_rows,
        warnings_json,
    )
    from analyzer.present.report.verify import render_junit, render_verdict, verdict_json

#: The module of each name this package offers, imported when the name is first used (as
#: the package root does, :mod:`analyzer`): a command imports only the renderers it needs
#: (``nine verify`` none of the lucky 9 ones, which bring networkx).
_MODULES = {
    "analysis": (
        "COUNTER_RULE", "formula_json", "payout_edges_json", "payout_json", "removal_json",
        "render_formula", "render_payout", "render_payout_edges", "render_removal", "render_shoe",
        "shoe_json",
    ),
    "choice": (
        "draw_text", "equilibrium_json", "render_equilibrium", "render_evaluation",
        "render_session", "render_strategy_card", "session_json",
    ),
    "common": (
        "FORMATS", "JSON", "decimal_text", "fraction_text", "json_text", "payout_text", "percent",
        "stable_floats", "table", "totals_text",
    ),
    "lucky9": (
        "advice_json", "advice_sentence", "clock_rule", "epsilon_json", "epsilon_sentence",
        "play_sentence", "render_advice", "render_edges", "render_table_cards",
        "render_table_evaluation", "render_table_summary", "rounding_json", "table_evaluation_json",
        "table_summary_json",
    ),
    "odds": (
        "odds_json", "render_features", "render_odds", "render_profiles", "summary_rows",
        "warnings_json",
    ),
    "verify": (
        "render_junit", "render_verdict", "verdict_json",
    ),
}
_HOME = {name: module for module, names in _MODULES.items() for name in names}

__all__ = ["advice_json", "advice_sentence", "clock_rule", "COUNTER_RULE", "decimal_text",
           "play_sentence",
           "draw_text",
           "equilibrium_json", "FORMATS", "formula_json", "fraction_text", "JSON", "json_text",
           "odds_json", "payout_edges_json", "payout_json", "payout_text", "percent",
           "removal_json", "render_advice", "render_edges", "rounding_json", "epsilon_json",
           "epsilon_sentence", "render_equilibrium", "render_evaluation",
           "render_formula",
           "render_features", "render_junit", "render_odds", "render_payout",
           "render_payout_edges", "render_profiles", "render_removal",
           "render_session", "render_shoe", "render_strategy_card", "render_table_cards",
           "render_table_evaluation", "render_table_summary", "render_verdict", "session_json",
           "shoe_json", "stable_floats", "summary_rows", "table", "table_evaluation_json",
           "table_summary_json", "totals_text", "verdict_json", "warnings_json"]


def __getattr__(name: str) -> Any:
    """A renderer, imported from its module on first use (then kept here)."""
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOME})
