"""PAR sheets: the probability accounting report of a fixed-tableau game on one shoe.

A PAR sheet gathers what a regulator or a buyer of a game asks for, per bet: every
outcome's combinations and exact probability, the house edge, the element of risk, the hit
frequency, the standard deviation and volatility index, the range of the house's win after
100 to 1,000,000 hands, the hands a test lab needs to verify the return, and the effects of
removal; for a profile with a shoe procedure, the odds across the shoe. :func:`par_sheet`
builds the record from the exact engine (:func:`analyzer.engine.odds.odds`), the effects of
removal (:func:`analyzer.analysis.removal.removal_effects`), the seeded shoes of
:func:`analyzer.analysis.drift.simulate_shoes` and the sample sizes of
:func:`analyzer.verify.inference.statistics.rtp_hands_needed`, each stated with the ``nine`` command
that prints it; :mod:`analyzer.present.report.par` renders it as HTML or Markdown. A game of
choices has no tableau: :mod:`analyzer.present.par_choice` builds its sheet from the
certified equilibrium.

>>> sheet = par_sheet("punto-banco", 8, plots=False)
>>> banker = sheet.bet("banker")
>>> banker.odds.lines[0].ways, banker.element_of_risk == banker.odds.house_edge
(2292252566437888, True)
>>> [f"{low:+.2%} to {high:+.2%}" for low, high in banker.win_ranges[0].ranges][:1]
['-14.20% to +16.31%']
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import ClassVar

from analyzer.analysis.checks import PaytableWarning, paytable_warnings
from analyzer.analysis.drift import ShoeRun, simulate_shoes
from analyzer.analysis.removal import LinearCount, RemovalTable, removal_effects
from analyzer.engine.odds import BetOdds, OddsTable, odds
from analyzer.errors import AnalyzerError
from analyzer.present.plots import plot_shoe
from analyzer.present.sheet import Sheet, SheetKind, WinRange, command_name, sheet_decks, spread
from analyzer.rules.profile import DEFAULT_PROCEDURE, Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["BetPar", "DRIFT_SEED", "DRIFT_SHOES", "has_procedure", "par_sheet", "ParSheet",
           "REMOVAL_SAMPLES", "REMOVAL_SEED", "TABLEAU"]

#: A fixed-tableau game's kind of sheet: every bet against the house, hand by hand.
TABLEAU = SheetKind("tableau", "hands", "house", "house edge", "unit wagered",
                    ("par", "odds", "removal", "drift"))

#: Seeded depleted shoes for the linear counts' correlation with the exact EV.
REMOVAL_SAMPLES = 200
REMOVAL_SEED = 1
#: Seeded shoes dealt by the profile's procedure for the odds across the shoe.
DRIFT_SHOES = 200
DRIFT_SEED = 7


@dataclass(frozen=True)
class BetPar:
    """One bet's PAR figures: its exact odds and what follows from them."""

    #: The bet's exact odds on the sheet's shoe.
    odds: BetOdds
    #: Money wagered per decision, in initial stakes: no shipped bet raises or doubles.
    average_wager: Fraction
    #: z x SD at the two-sided :data:`~analyzer.present.sheet.VOLATILITY_LEVEL`.
    volatility_index: float
    #: The range of the house's win after each of :data:`~analyzer.present.sheet.HANDS`.
    win_ranges: tuple[WinRange, ...]
    #: Hands to detect an RTP error of :data:`~analyzer.present.sheet.RTP_ERROR`.
    hands_needed: int
    #: (group, effect of removing one card of it on the EV) by rank, then suit and colour.
    removal: tuple[tuple[str, Fraction], ...]
    #: The best balanced linear count of this bet (None without the effects of removal).
    count: LinearCount | None

    @property
    def rtp(self) -> Fraction:
        """The return to player per unit staked: one minus the house edge."""
        return 1 - self.odds.house_edge

    @property
    def element_of_risk(self) -> Fraction:
        """The house edge per total money wagered, pushes counted as money wagered."""
        return self.odds.house_edge / self.average_wager

    @property
    def rarest(self) -> Fraction:
        """The probability of the bet's rarest paying line (0 when none can happen)."""
        paying = [line.probability for line in self.odds.lines
                  if line.pays > 0 and line.probability > 0]
        return min(paying, default=Fraction(0))


@dataclass(frozen=True, kw_only=True)
class ParSheet(Sheet):
    """A fixed-tableau game's PAR sheet: a profile's exact odds on one shoe, per-bet figures
    and their sources (``commands``: ``par``, ``odds``, ``removal`` and, with a shoe
    procedure, ``drift``)."""

    kind: ClassVar[SheetKind] = TABLEAU
    #: Every bet's exact odds on the shoe (:func:`analyzer.odds`).
    odds: OddsTable
    #: Every bet's PAR figures, in the profile's order.
    bets: tuple[BetPar, ...]
    #: The effects of removal (None when they were not computed).
    removal: RemovalTable | None
    #: The seeded shoes dealt by the profile's procedure (None without a procedure).
    drift: ShoeRun | None
    #: The odds-across-the-shoe plot as PNG bytes (None without a procedure or matplotlib:
    #: ``notes`` says which).
    drift_png: bytes | None
    #: The paytable's warnings on this shoe (:mod:`analyzer.analysis.checks`).
    warnings: tuple[PaytableWarning, ...] = ()

    def bet(self, bet_id: str) -> BetPar:
        """One bet's figures by id."""
        for bet in self.bets:
            if bet.odds.id == bet_id:
                return bet
        raise AnalyzerError(f"no bet {bet_id!r} in profile {self.profile.name!r}")

    @property
    def has_procedure(self) -> bool:
        """Does the profile state how its shoe is run (burn, cut card, windows)?"""
        return has_procedure(self.profile)


def has_procedure(profile: Profile) -> bool:
    """Does a profile have its own ``[procedure]`` table (a shoe procedure)?"""
    return profile.procedure != DEFAULT_PROCEDURE


def _removal(table: RemovalTable | None, column: int) -> tuple[tuple[str, Fraction], ...]:
    if table is None:
        return ()
    groups = list(table.ranks) + (list(table.suits) + list(table.colours)
                                  if table.reads_suits else [])
    return tuple((group.label, group.effects[column]) for group in groups)


def _drift_png(run: ShoeRun) -> tuple[bytes | None, str]:
    with tempfile.TemporaryDirectory() as folder:
        target = os.path.join(folder, "drift.png")
        try:
            plot_shoe(run, target)
        except AnalyzerError as exc:  # matplotlib (the ``plot`` extra) not installed
            return None, f"drift plot not drawn: {exc}"
        return Path(target).read_bytes(), ""


def par_sheet(profile: Profile | str, decks: int | None = None, *,
              odds_result: OddsTable | None = None, removal: RemovalTable | None = None,
              drift: ShoeRun | None = None, drift_png: bytes | None = None,
              plots: bool = True) -> ParSheet:
    """The PAR sheet of ``profile`` (a name, alias, file or Profile) on ``decks`` decks
    (default: the profile's).

    Results already computed by the same calls (``nine tables`` has them) may be passed in:
    ``odds_result`` of ``odds(profile, Shoe.decks(decks))``, ``removal`` of
    ``removal_effects(profile, decks, REMOVAL_SAMPLES, REMOVAL_SEED)``, ``drift`` of
    ``simulate_shoes(profile, decks, DRIFT_SHOES, DRIFT_SEED)`` and its plot ``drift_png``.
    ``plots=False`` draws no plot.
    """
    rules = load_profile(profile) if isinstance(profile, str) else profile
    if rules.tableau is None:
        raise AnalyzerError(f"profile {rules.name!r} has no fixed tableau: its players choose "
                            "(its PAR sheet is analyzer.present.par_choice's)")
    decks = sheet_decks(rules, decks)
    name = command_name(rules)
    table = odds_result if odds_result is not None else odds(rules, Shoe.decks(decks))
    if removal is None:
        removal = removal_effects(rules, decks, REMOVAL_SAMPLES, REMOVAL_SEED)
    notes: list[str] = []
    if has_procedure(rules):
        if drift is None:
            drift = simulate_shoes(rules, decks, DRIFT_SHOES, DRIFT_SEED)
        if drift_png is None and plots:
            drift_png, note = _drift_png(drift)
            notes += [note] if note else []
    else:
        drift = drift_png = None
    bets = []
    for j, bet in enumerate(table.bets):
        paying = [line.probability for line in bet.lines if line.pays > 0 and line.probability]
        count = removal.counts[j] if removal is not None else None
        bets.append(BetPar(bet, Fraction(1),
                           *spread(bet.house_edge, bet.sd, min(paying, default=Fraction(0))),
                           _removal(removal, j), count))
    shoe = ["--decks", str(decks)]
    commands = [("par", " ".join(["nine par --profile", name, *shoe, "--out DIR"])),
                ("odds", " ".join(["nine odds --profile", name, *shoe])),
                ("removal", " ".join(["nine eor --profile", name, *shoe, "--samples",
                                      str(REMOVAL_SAMPLES), "--seed", str(REMOVAL_SEED)]))]
    if drift is not None:
        commands.append(("drift", " ".join(["nine shoe --profile", name, *shoe, "--shoes",
                                            str(DRIFT_SHOES), "--seed", str(DRIFT_SEED),
                                            "--plot FILE.png"])))
    return ParSheet(profile=rules, decks=decks, commands=tuple(commands), notes=tuple(notes),
                    odds=table, bets=tuple(bets),
                    removal=removal, drift=drift, drift_png=drift_png,
                    warnings=paytable_warnings(rules, Shoe.decks(decks), table))
