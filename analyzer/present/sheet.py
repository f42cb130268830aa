"""What every PAR sheet is, whichever kind: its record's common fields, and the figures both
kinds compute the same way.

There are two kinds of PAR sheet, told apart as data (:class:`SheetKind`): a fixed-tableau
game's (:data:`analyzer.present.par.TABLEAU`: the house against each bet) and a game of
choices' (:data:`analyzer.present.par_choice.CHOICE`: the bank against a player who plays
the certified equilibrium). Both are a :class:`Sheet`: a profile on one shoe,
every figure's ``nine`` command, the rules document, notes and provenance; both give the
range of the house's (or bank's) win after 100 to 1,000,000 rounds by the normal
approximation (:func:`win_ranges`) and the rounds needed to verify the return at one stated
test level (:data:`RTP_ERROR`, :data:`ALPHA`, :data:`POWER`).

>>> [round(low, 4) for low, _ in win_ranges(Fraction(1, 100), 1.0, Fraction(1, 2))[0].ranges]
[-0.1545, -0.186, -0.2476]
>>> volatility, ranges, hands = spread(Fraction(1, 100), 1.0, Fraction(1, 2))
>>> round(volatility, 4), len(ranges), hands
(1.6449, 5, 11678969)
"""

from __future__ import annotations

import datetime
import hashlib
import math
import os
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import ClassVar

from analyzer import __version__
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import Profile, profile_text, shipped_profiles
from analyzer.rules.shoe import Shoe
from analyzer.verify.inference.statistics import ALPHA, POWER, rtp_hands_needed

__all__ = ["ALPHA", "command_name", "HANDS", "LEVELS", "POWER", "profile_sha256", "RARE",
           "RTP_ERROR", "rules_document", "Sheet", "sheet_date", "sheet_decks", "SheetKind",
           "spread", "VOLATILITY_LEVEL", "win_ranges", "WinRange", "z_value"]

#: Numbers of hands after which the range of the house's win is given.
HANDS = (100, 1_000, 10_000, 100_000, 1_000_000)
#: Two-sided confidence levels of those ranges.
LEVELS = (0.90, 0.95, 0.99)
#: The volatility index is this two-sided level's z times the SD (the slot PAR convention).
VOLATILITY_LEVEL = 0.90
#: Hands to verify: the RTP error to detect, with a two-sided test at ALPHA (nine verify's
#: default) and power POWER (both of :mod:`analyzer.verify.inference.statistics`).
RTP_ERROR = 0.001
#: A range is marked rough when fewer than this many hits of the bet's rarest paying line
#: are expected in that many hands (the normal approximation then says little).
RARE = 5


@dataclass(frozen=True)
class SheetKind:
    """What tells one kind of PAR sheet from the other, in the words its pages use."""

    #: ``tableau`` or ``choice``.
    name: str
    #: What one round of play is called: ``hands``, ``coups``.
    rounds: str
    #: Whose win the ranges are of: ``house``, ``bank``.
    winner: str
    #: The edge those ranges centre on: ``house edge``, ``banker's edge``.
    edge: str
    #: What the ranges are per: ``unit wagered``, ``unit staked``.
    per: str
    #: What the sheet states a ``nine`` command for, in its Method section's order.
    figures: tuple[str, ...]


def z_value(level: float) -> float:
    """The two-sided normal quantile of a confidence level.

    >>> round(z_value(0.95), 4)
    1.96
    """
    return NormalDist().inv_cdf((1 + level) / 2)


@dataclass(frozen=True)
class WinRange:
    """The house's win on a bet after ``hands`` one-unit bets (normal approximation)."""

    #: How many one-unit bets (one of :data:`HANDS`).
    hands: int
    #: The house's expected win after them, in units staked.
    expected: float
    #: The SD of that win, in units staked.
    sd: float
    #: Per level of :data:`LEVELS`, the (low, high) house win per unit wagered,
    #: ``edge -/+ z SD / sqrt(n)``.
    ranges: tuple[tuple[float, float], ...]
    #: Fewer than :data:`RARE` hits of the rarest paying line are expected: a rough range.
    rough: bool


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


def spread(edge: Fraction, sd: float, rarest: Fraction) -> tuple[float, tuple[WinRange, ...],
                                                                  int]:
    """What a bet's (or a coup's) edge and SD per unit give on either kind of sheet: the
    volatility index (z x SD at :data:`VOLATILITY_LEVEL`), the ranges of the house's win
    (:func:`win_ranges`) and the rounds to verify the return (an error of
    :data:`RTP_ERROR` at :data:`ALPHA` with power :data:`POWER`)."""
    return (z_value(VOLATILITY_LEVEL) * sd, win_ranges(edge, sd, rarest),
            rtp_hands_needed(sd, RTP_ERROR, ALPHA, POWER))


@dataclass(frozen=True, kw_only=True)
class Sheet:
    """A PAR sheet of either kind: a profile on one shoe, and where its figures come from."""

    #: Which kind of sheet this is (the class's: tableau or choice).
    kind: ClassVar[SheetKind]
    #: The profile the sheet accounts for.
    profile: Profile
    #: The shoe's number of decks.
    decks: int
    #: (what a figure is, the ``nine`` command that prints it), in the order of
    #: ``kind.figures``; display text (``--out DIR``, ``--plot FILE.png`` are placeholders).
    commands: tuple[tuple[str, str], ...]
    #: What the sheet could not give, in words (a plot not drawn, a table not solved).
    notes: tuple[str, ...] = ()
    #: The analyzer version that made the sheet.
    version: str = __version__
    #: The shipped rules document (``docs/rules/<name>.md``), or empty (from ``profile``).
    rules: str = field(init=False)
    #: The day the sheet was made (ISO 8601, :func:`sheet_date`).
    generated: str = field(init=False)
    #: The SHA-256 of the merged profile text (:func:`profile_sha256`; empty when none).
    profile_sha256: str = field(init=False)

    def __post_init__(self) -> None:
        """The sheet's provenance, from its profile and today (a frozen record's fields
        set once, the dataclass way)."""
        object.__setattr__(self, "rules", rules_document(self.profile))
        object.__setattr__(self, "generated", sheet_date())
        object.__setattr__(self, "profile_sha256", profile_sha256(self.profile))

    def command(self, what: str) -> str:
        """The ``nine`` command that prints ``what`` (one of ``kind.figures``)."""
        found = dict(self.commands)
        if what not in found:
            raise AnalyzerError(f"the PAR sheet of {self.profile.name!r} states no {what!r} "
                                f"command (it has {', '.join(found)})")
        return found[what]

    @property
    def stem(self) -> str:
        """File name of the sheet, without extension: ``punto-banco-8-decks``."""
        return f"{self.profile.name}-{self.decks}-deck{'s' if self.decks != 1 else ''}"

    @property
    def shoe(self) -> str:
        """The shoe as the engine describes it: ``8 decks``."""
        return Shoe.decks(self.decks).describe()


def sheet_decks(profile: Profile, decks: int | None) -> int:
    """The sheet's number of decks: ``decks``, or the profile's own; 1 to 64."""
    decks = profile.default_decks if decks is None else decks
    if isinstance(decks, bool) or not 1 <= decks <= 64:
        raise AnalyzerError(f"--decks: a PAR sheet is for 1 to 64 decks, not {decks!r}")
    return decks


def command_name(profile: Profile) -> str:
    """How a sheet's commands name the profile: a shipped profile by name, another by its
    file."""
    return profile.name if rules_document(profile) else (profile.path or profile.name)


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

    >>> from analyzer.rules.profile import load_profile
    >>> profile_sha256(load_profile("punto-banco"))[:12]
    '41d1416bd898'
    """
    source = profile.name if profile.path.startswith("profiles/") else profile.path
    if not source or not Path(source).is_file() and source != profile.name:
        return ""
    return hashlib.sha256(profile_text(source).encode("utf-8")).hexdigest()


def rules_document(profile: Profile) -> str:
    """``docs/rules/<name>.md`` for a shipped profile, else empty."""
    shipped = {p.name for p in shipped_profiles()}
    return f"docs/rules/{profile.name}.md" if profile.name in shipped else ""
