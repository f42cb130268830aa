"""The analyses a publication keeps for its later sections, under typed keys.

A section that computes an analysis a later one also needs (the PAR sheets read the exact
odds, the effects of removal, the seeded shoes and their plot, a choice game's certified
equilibrium and its bank's edge by table size) puts it under a :class:`ResultKey`: what
the analysis is, of which profile, on which shoe, with which seeds. A key's type parameter
is the type of its result, so ``results.get(odds_key("punto-banco", 8))`` is an
:class:`~analyzer.engine.odds.OddsTable` (or None) to the type checker. The ``nine``
commands stated in the published files stay display text; no key is built from one.

>>> results = Results()
>>> results.put(drift_plot_key("lucky-baccarat", 8, 200, 7), b"PNG")
>>> results.get(drift_plot_key("lucky-baccarat", 8, 200, 7))
b'PNG'
>>> results.get(drift_plot_key("lucky-baccarat", 8, 200, 8)) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar, cast

if TYPE_CHECKING:
    from analyzer.analysis.drift import ShoeRun
    from analyzer.analysis.removal import RemovalTable
    from analyzer.choice.headsup.solver import Equilibrium
    from analyzer.choice.table.summary import TableSummary
    from analyzer.engine.odds import OddsTable
    from analyzer.present.par import ParSheet
    from analyzer.present.par_choice import ChoiceParSheet

__all__ = ["drift_key", "drift_plot_key", "heads_up_key", "odds_key", "par_key", "removal_key",
           "ResultKey", "Results", "table_sizes_key"]

R = TypeVar("R")

#: What an analysis is: exact odds, effects of removal, seeded shoes and their PNG plot, a
#: heads-up equilibrium, the bank's edge by table size, a PAR sheet.
Analysis = Literal["odds", "removal", "drift", "drift-plot", "heads-up", "table-sizes", "par"]


@dataclass(frozen=True)
class ResultKey(Generic[R]):
    """Which analysis a result is: its kind, profile and shoe, and how it was computed."""

    #: What the analysis is.
    analysis: Analysis
    #: The profile's name.
    profile: str
    #: The shoe's number of decks (None: the infinite deck).
    decks: int | None
    #: What each side sees of its hand (a choice game's ``--by``), or empty.
    by: str = ""
    #: The seeded shoes or samples the analysis dealt (0: none).
    samples: int = 0
    #: Their seed (0: none).
    seed: int = 0
    #: The players of the largest table solved (0: not a table).
    players: int = 0


@dataclass
class Results:
    """The results a publication keeps (never written), each under its key."""

    found: dict[ResultKey[Any], object] = field(default_factory=dict)

    def put(self, key: ResultKey[R], result: R) -> None:
        """Keep ``result`` under ``key``."""
        self.found[key] = result

    def get(self, key: ResultKey[R]) -> R | None:
        """The result under ``key``, or None when no section computed it."""
        return cast("R | None", self.found.get(key))

    def update(self, other: Results) -> None:
        """Keep every result of ``other`` too (a worker's share of the publication)."""
        self.found.update(other.found)


def odds_key(profile: str, decks: int | None) -> ResultKey[OddsTable]:
    """Every bet's exact odds (:func:`analyzer.engine.odds.odds`)."""
    return ResultKey("odds", profile, decks)


def removal_key(profile: str, decks: int, samples: int, seed: int) -> ResultKey[RemovalTable]:
    """The effects of removal, the count's correlation over ``samples`` seeded shoes."""
    return ResultKey("removal", profile, decks, samples=samples, seed=seed)


def drift_key(profile: str, decks: int, shoes: int, seed: int) -> ResultKey[ShoeRun]:
    """``shoes`` seeded shoes dealt by the profile's procedure."""
    return ResultKey("drift", profile, decks, samples=shoes, seed=seed)


def drift_plot_key(profile: str, decks: int, shoes: int, seed: int) -> ResultKey[bytes]:
    """The PNG plot of those shoes' EV by hand number."""
    return ResultKey("drift-plot", profile, decks, samples=shoes, seed=seed)


def heads_up_key(profile: str, decks: int | None, by: str) -> ResultKey[Equilibrium]:
    """A choice game's certified heads-up equilibrium, each side seeing ``by``."""
    return ResultKey("heads-up", profile, decks, by)


def table_sizes_key(profile: str, by: str, players: int) -> ResultKey[list[TableSummary]]:
    """The certified tables of 1 to ``players`` players at the infinite deck, each side
    seeing ``by``."""
    return ResultKey("table-sizes", profile, None, by, players=players)


def par_key(profile: str, decks: int) -> ResultKey[ParSheet | ChoiceParSheet]:
    """A profile's PAR sheet of either kind."""
    return ResultKey("par", profile, decks)
