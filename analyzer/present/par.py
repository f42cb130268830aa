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

import datetime
import hashlib
import math
import os
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist

from analyzer import __version__
from analyzer.analysis.checks import PaytableWarning, paytable_warnings
from analyzer.analysis.drift import ShoeRun, simulate_shoes
from analyzer.analysis.removal import LinearCount, RemovalTable, removal_effects
from analyzer.engine.odds import BetOdds, OddsTable, odds
from analyzer.errors import AnalyzerError
from analyzer.present.plots import plot_shoe
from analyzer.rules.profile import (
    DEFAULT_PROCEDURE,
    Profile,
    load_profile,
    profile_text,
    shipped_profiles,
)
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.statistics import ALPHA, POWER, rtp_hands_needed

__all__ = ["ALPHA", "BetPar", "DRIFT_SEED", "DRIFT_SHOES", "HANDS", "has_procedure", "LEVELS",
           "par_sheet", "ParSheet", "POWER", "profile_sha256", "RARE", "REMOVAL_SAMPLES",
           "REMOVAL_SEED", "rules_document", "RTP_ERROR", "sheet_date", "VOLATILITY_LEVEL",
           "win_ranges", "WinRange", "z_value"]

#: Numbers of hands after which the range of the house's win is given.
HANDS = (100, 1_000, 10_000, 100_000, 1_000_000)
#: Two-sided confidence levels of those ranges.
LEVELS = (0.90, 0.95, 0.99)
#: The volatility index is this two-sided level's z times the SD (the slot PAR convention).
VOLATILITY_LEVEL = 0.90
#: Hands to verify: the RTP error to detect, with a two-sided test at ALPHA (nine verify's
#: default) and power POWER (both of :mod:`analyzer.verify.inference.statistics`).
RTP_ERROR = 0.001
#: Seeded depleted shoes for the linear counts' correlation with the exact EV.
REMOVAL_SAMPLES = 200
REMOVAL_SEED = 1
#: Seeded shoes dealt by the profile's procedure for the odds across the shoe.
DRIFT_SHOES = 200
DRIFT_SEED = 7
#: A range is marked rough when fewer than this many hits of the bet's rarest paying line
#: are expected in that many hands (the normal approximation then says little).
RARE = 5


def z_value(level: float) -> float:
    """The two-sided normal quantile of a confidence level.

    >>> round(z_value(0.95), 4)
    1.96
    """
    return NormalDist().inv_cdf((1 + level) / 2)


@dataclass(frozen=True)
class WinRange:
    """The house's win on a bet after ``hands`` one-unit bets (normal approximation).

    ``expected`` and ``sd`` are in units staked; ``ranges`` holds, per level of
    :data:`LEVELS`, the (low, high) house win per unit wagered, ``edge -/+ z SD / sqrt(n)``.
    """

    hands: int
    expected: float
    sd: float
    ranges: tuple[tuple[float, float], ...]
    rough: bool


@dataclass(frozen=True)
class BetPar:
    """One bet's PAR figures: its exact odds and what follows from them."""

    odds: BetOdds
    #: Money wagered per decision, in initial stakes: no shipped bet raises or doubles.
    average_wager: Fraction
    volatility_index: float
    win_ranges: tuple[WinRange, ...]
    hands_needed: int
    #: (group, effect of removing one card of it on the EV) by rank, then suit and colour.
    removal: tuple[tuple[str, Fraction], ...]
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


@dataclass(frozen=True)
class ParSheet:
    """A PAR sheet: a profile's exact odds on one shoe, per-bet figures and their sources.

    ``commands`` maps what a figure is (``odds``, ``removal``, ``drift``, ``par``) to the
    ``nine`` command that prints it; ``drift_png`` is the odds-across-the-shoe plot (None
    when the profile has no shoe procedure or matplotlib is absent, ``notes`` says which).
    """

    profile: Profile
    decks: int
    odds: OddsTable
    bets: tuple[BetPar, ...]
    removal: RemovalTable | None
    drift: ShoeRun | None
    drift_png: bytes | None
    commands: tuple[tuple[str, str], ...]
    rules: str
    notes: tuple[str, ...] = ()
    version: str = __version__
    #: The paytable's warnings on this shoe (:mod:`analyzer.analysis.checks`).
    warnings: tuple[PaytableWarning, ...] = ()
    #: The day the sheet was made (ISO 8601) and the SHA-256 of the merged profile text.
    generated: str = ""
    profile_sha256: str = ""

    def bet(self, bet_id: str) -> BetPar:
        """One bet's figures by id."""
        for bet in self.bets:
            if bet.odds.id == bet_id:
                return bet
        raise AnalyzerError(f"no bet {bet_id!r} in profile {self.profile.name!r}")

    def command(self, what: str) -> str:
        """The ``nine`` command that prints ``what`` (``odds``, ``removal``, ``drift``,
        ``par``)."""
        return dict(self.commands)[what]

    @property
    def stem(self) -> str:
        """File name of the sheet, without extension: ``punto-banco-8-decks``."""
        return f"{self.profile.name}-{self.decks}-deck{'s' if self.decks != 1 else ''}"

    @property
    def has_procedure(self) -> bool:
        """Does the profile state how its shoe is run (burn, cut card, windows)?"""
        return has_procedure(self.profile)


def sheet_date() -> str:
    """Today as ``YYYY-MM-DD`` (UTC), or the day of ``SOURCE_DATE_EPOCH`` when it is set (the
    reproducible-builds convention)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    moment = (datetime.datetime.fromtimestamp(int(epoch), datetime.UTC) if epoch.isdigit()
              else datetime.datetime.now(datetime.UTC))
    return moment.date().isoformat()


def profile_sha256(profile: Profile) -> str:
    """The SHA-256 of the merged profile text, the TOML ``nine profiles --show`` prints under
    its comment line (empty for a profile not read from a file).

    >>> profile_sha256(load_profile("punto-banco"))[:12]
    '41d1416bd898'
    """
    source = profile.name if profile.path.startswith("profiles/") else profile.path
    if not source or not Path(source).is_file() and source != profile.name:
        return ""
    return hashlib.sha256(profile_text(source).encode("utf-8")).hexdigest()


def has_procedure(profile: Profile) -> bool:
    """Does a profile have its own ``[procedure]`` table (a shoe procedure)?"""
    return profile.procedure != DEFAULT_PROCEDURE


def rules_document(profile: Profile) -> str:
    """``docs/rules/<name>.md`` for a shipped profile, else empty."""
    shipped = {p.name for p in shipped_profiles()}
    return f"docs/rules/{profile.name}.md" if profile.name in shipped else ""


def win_ranges(edge: Fraction, sd: float, rarest: Fraction) -> tuple[WinRange, ...]:
    """The house's (or bank's) win after each of :data:`HANDS` one-unit bets with this edge
    and SD per unit; a range is rough when the rarest paying line (probability ``rarest``)
    is expected fewer than :data:`RARE` times.

    >>> [f"{low:+.2%}" for low, _ in win_ranges(Fraction(1, 100), 1.0, Fraction(1, 2))[1].ranges]
    ['-4.20%', '-5.20%', '-7.15%']
    """
    ranges = []
    for n in HANDS:
        spread = sd / math.sqrt(n)
        ranges.append(WinRange(n, float(edge) * n, sd * math.sqrt(n),
                               tuple((float(edge) - z * spread, float(edge) + z * spread)
                                     for z in map(z_value, LEVELS)),
                               rarest > 0 and float(rarest) * n < RARE))
    return tuple(ranges)


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
    decks = rules.default_decks if decks is None else decks
    if isinstance(decks, bool) or not 1 <= decks <= 64:
        raise AnalyzerError(f"--decks: a PAR sheet is for 1 to 64 decks, not {decks!r}")
    name = rules.name if rules_document(rules) else (rules.path or rules.name)
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
    z = z_value(VOLATILITY_LEVEL)
    bets = []
    for j, bet in enumerate(table.bets):
        paying = [line.probability for line in bet.lines if line.pays > 0 and line.probability]
        count = removal.counts[j] if removal is not None else None
        bets.append(BetPar(bet, Fraction(1), z * bet.sd,
                           win_ranges(bet.house_edge, bet.sd, min(paying, default=Fraction(0))),
                           rtp_hands_needed(bet.sd, RTP_ERROR, ALPHA, POWER),
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
    return ParSheet(rules, decks, table, tuple(bets), removal, drift, drift_png,
                    tuple(commands), rules_document(rules), tuple(notes),
                    warnings=paytable_warnings(rules, Shoe.decks(decks), table),
                    generated=sheet_date(), profile_sha256=profile_sha256(rules))
