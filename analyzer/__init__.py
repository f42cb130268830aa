"""nine-analyzer: exact combinatorial analysis of the baccarat family of card games.

``import analyzer`` gives the verbs a user needs, each imported on first use (PEP 562), so
importing the package stays as cheap as reading its cards and shoes:

=================================  ============================================================
name                               what it does (result record)
=================================  ============================================================
:func:`load_profile`               a profile by name, alias or TOML path (:class:`Profile`)
:func:`odds`                       every bet's exact odds on one shoe (:class:`OddsTable`,
                                   :class:`BetOdds`, :class:`LineOdds`, :class:`Distribution`)
:class:`BatchEvaluator`            every bet's EV for many shoes at once, in float64
:func:`solve`                      a choice game's certified heads-up equilibrium
                                   (:class:`Equilibrium`)
:func:`solve_table`                a home Lucky 9 table's certified equilibrium
                                   (:class:`TableEquilibrium`)
:func:`advise_seat`,               the equilibrium's play in one situation and the exact value
:func:`advise_bank`                of each choice (:class:`Advice`)
:func:`par_sheet`                  a PAR sheet's figures (:class:`ParSheet`)
:func:`simulate`                   deal shoes and write a hand log (:class:`SimulationSummary`)
:func:`verify_logs`                replay and test hand logs (:class:`Verdict`)
=================================  ============================================================

and, imported at once, :class:`Shoe`, :func:`make_shoe`, :class:`Card`, :func:`parse_cards`
and the one error type :class:`AnalyzerError` (a ``ValueError``).

>>> import analyzer
>>> analyzer.odds("punto-banco", analyzer.Shoe.decks(8)).bet("tie").ev
Fraction(-103841353768, 723147898655)
"""

import importlib
import os
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# The engine's matrix products are small (bets x 6,958 terms x a few hundred shoes): a
# multi-threaded BLAS only adds contention (5-7x slower measured on a loaded 2-core machine).
# These variables reach every BLAS loaded after this import (numpy's, scipy's); the
# evaluators also set the limit through threadpoolctl for libraries loaded before it.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from analyzer.errors import AnalyzerError  # noqa: E402
from analyzer.rules.cards import Card, Rank, Suit, parse_cards  # noqa: E402
from analyzer.rules.shoe import Shoe, make_shoe  # noqa: E402

if TYPE_CHECKING:  # what the lazy names are, for type checkers; imported on first use
    from analyzer.choice.headsup.solver import Equilibrium, solve
    from analyzer.choice.table.advice import Advice, advise_bank, advise_seat
    from analyzer.choice.table.solve import TableEquilibrium, solve_table
    from analyzer.dealing.simulate import SimulationSummary, simulate
    from analyzer.engine.evaluator import BatchEvaluator
    from analyzer.engine.odds import BetOdds, Distribution, LineOdds, OddsTable, odds
    from analyzer.present.par import ParSheet, par_sheet
    from analyzer.rules.profile import Profile, load_profile
    from analyzer.verify.run import verify_logs
    from analyzer.verify.verdict import Verdict

#: Each lazy name -> the module that owns it.
_LAZY = {
    "load_profile": "analyzer.rules.profile", "Profile": "analyzer.rules.profile",
    "odds": "analyzer.engine.odds", "OddsTable": "analyzer.engine.odds",
    "BetOdds": "analyzer.engine.odds", "LineOdds": "analyzer.engine.odds",
    "Distribution": "analyzer.engine.odds", "BatchEvaluator": "analyzer.engine.evaluator",
    "solve": "analyzer.choice.headsup.solver", "Equilibrium": "analyzer.choice.headsup.solver",
    "solve_table": "analyzer.choice.table.solve",
    "TableEquilibrium": "analyzer.choice.table.solve",
    "advise_seat": "analyzer.choice.table.advice", "advise_bank": "analyzer.choice.table.advice",
    "Advice": "analyzer.choice.table.advice",
    "par_sheet": "analyzer.present.par", "ParSheet": "analyzer.present.par",
    "simulate": "analyzer.dealing.simulate", "SimulationSummary": "analyzer.dealing.simulate",
    "verify_logs": "analyzer.verify.run", "Verdict": "analyzer.verify.verdict",
}

__all__ = ["Advice", "advise_bank", "advise_seat", "AnalyzerError", "BatchEvaluator", "BetOdds",
           "Card", "Distribution", "Equilibrium", "LineOdds", "load_profile", "make_shoe",
           "odds", "OddsTable", "par_sheet", "ParSheet", "parse_cards", "Profile", "Rank",
           "Shoe", "simulate", "SimulationSummary", "solve", "solve_table", "Suit",
           "TableEquilibrium", "Verdict", "verify_logs", "__version__"]


def __getattr__(name: str) -> Any:
    """A lazy name, imported from its owner on first use (then kept here)."""
    owner = _LAZY.get(name)
    if owner is None:
        raise AttributeError(f"module 'analyzer' has no attribute {name!r}")
    value = getattr(importlib.import_module(owner), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
