"""A profile compiled for replaying and checking hands: each bet's result labels and net
payouts (:class:`Model`), and every legal coup of its tableau indexed by point values
(:class:`CoupIndex`). Compiled once per (profile, decks), cached by value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from analyzer.engine.enumeration import coups
from analyzer.engine.forms import CARD_VALUES
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import net_payout, settle_codes
from analyzer.rules.profile import Bet, Profile, load_profile
from analyzer.rules.shoe import Shoe

__all__ = ["BetModel", "card_coup_codes", "CODES", "coup_code", "CoupIndex", "Model",
           "build_model", "coup_labels", "coup_lookup"]


# -- the compiled model of a profile ---------------------------------------------------------
@dataclass(frozen=True)
class BetModel:
    """One bet's result labels: label 0 loses, label i+1 is line i (or a mask of lines)."""

    bet: Bet
    labels: tuple[tuple[int, ...], ...]
    nets: tuple[Fraction, ...]

    def label(self, result: tuple[int, ...]) -> int:
        """The label index of a settled result."""
        if self.bet.pay_rule == "all":
            return sum(1 << i for i in result)
        return result[0] + 1 if result else 0

    def label_name(self, index: int) -> str:
        """A label as people read it: the line names, or 'lose'."""
        lines = self.labels[index]
        return " + ".join(self.bet.lines[i].name for i in lines) if lines else "lose"


def _bet_model(bet: Bet) -> BetModel:
    if bet.pay_rule == "all":
        labels = tuple(tuple(i for i in range(len(bet.lines)) if mask >> i & 1)
                       for mask in range(1 << len(bet.lines)))
    else:
        labels = ((), *((i,) for i in range(len(bet.lines))))
    return BetModel(bet, labels, tuple(net_payout(bet, lab) for lab in labels))


@dataclass(frozen=True, eq=False)
class Model:
    """A profile compiled for checking: bets, labels and the exact full-shoe odds."""

    profile: Profile
    decks: int
    bets: tuple[BetModel, ...]
    card_level: bool

    @property
    def shoe(self) -> Shoe:
        """The full shoe the log should be dealt from."""
        return Shoe.decks(self.decks)

    def bet_index(self) -> dict[str, int]:
        """Bet id -> position."""
        return {m.bet.id: i for i, m in enumerate(self.bets)}


@cache
def _compile(profile: Profile, decks: int) -> Model:
    if profile.tableau is None:
        raise AnalyzerError(f"profile {profile.name!r} has no fixed tableau: its hands "
                            "cannot be replayed")
    card_level = profile.card_level
    return Model(profile, decks, tuple(_bet_model(bet) for bet in profile.bets), card_level)


def build_model(profile: Profile | str, decks: int | None = None) -> Model:
    """Compile a profile (name, alias, file or Profile) for ``decks`` decks."""
    if isinstance(profile, str):
        profile = load_profile(profile)
    return _compile(profile, profile.default_decks if decks is None else decks)


#: Index of each (low, high) first-two-cards pair of values 0-9 (low * 11 + high): 0-54;
#: 55 for any other (a value of 10, or not lowest first): a cell no coup fills.
_PAIRS = np.full(121, 55, dtype=np.int64)
_PAIRS[[low * 11 + high for low in range(10) for high in range(low, 10)]] = np.arange(55)
#: Cells of :attr:`CoupIndex.rows`.
CODES = 56 * 11 * 56 * 11


def coup_code(p1: Any, p2: Any, p3: Any, b1: Any, b2: Any, b3: Any) -> Any:
    """The cell of :attr:`CoupIndex.rows` of a coup's point values (ints or int64 arrays
    alike): each hand's first two lowest first, a third card 0-9 or 10 when not drawn."""
    return ((_PAIRS[p1 * 11 + p2] * 11 + p3) * 56 + _PAIRS[b1 * 11 + b2]) * 11 + b3


#: The pair index of each first two cards, by card index (first * 52 + second), in either
#: order; and each third card's value, 10 at index -1 (none drawn).
_CARD_PAIRS = _PAIRS[np.minimum.outer(CARD_VALUES, CARD_VALUES) * 11 +
                     np.maximum.outer(CARD_VALUES, CARD_VALUES)].ravel()
_THIRD_VALUES = np.append(CARD_VALUES, 10)


def card_coup_codes(player: npt.NDArray[np.int64], banker: npt.NDArray[np.int64]
                    ) -> npt.NDArray[np.int64]:
    """:func:`coup_code` of each row of two (n, 3) arrays of card indices 0-51 (-1: no
    third card), looked up by the cards themselves.

    >>> player, banker = np.array([[9, 0, -1]]), np.array([[12, 3, 4]])  # 3H AS / 4S AC 2S
    >>> int(card_coup_codes(player, banker)[0]) == int(coup_code(1, 3, 10, 1, 4, 2))
    True
    """
    code: npt.NDArray[np.int64] = (
        (_CARD_PAIRS[player[:, 0] * 52 + player[:, 1]] * 11 + _THIRD_VALUES[player[:, 2]])
        * 56 + _CARD_PAIRS[banker[:, 0] * 52 + banker[:, 1]]) * 11 + _THIRD_VALUES[banker[:, 2]]
    return code


@dataclass(frozen=True, eq=False)
class CoupIndex:
    """Every legal coup of a tableau, found by its point values in a flat array.

    A coup's code (:meth:`codes`) is its six values P1 P2 P3 B1 B2 B3, each hand's first
    two lowest first as one of their 55 pairs (a 56th for a pair no tableau deals), a third
    card 0-9 or 10 when not drawn: 56 * 11 * 56 * 11 int32 cells, 1.5 MB (the six values in
    base 11 took 7 MB; a dictionary of tuples ten times that). ``codes[bet][row]`` is each
    bet's result label and ``winners[row]`` the winner, made as lists when first asked (the
    column-wise verifier reads ``code_arrays`` and never asks).

    >>> index = coup_lookup(build_model("punto-banco", 8))
    >>> row = index.row((9, 0), (4, 3))
    >>> index.winners[row], index.row((9, 0), (4, 3, 5)) is None
    ('player', True)
    """

    rows: npt.NDArray[np.int32]
    #: each bet's result label of every row (int64)
    code_arrays: tuple[npt.NDArray[np.int64], ...]
    #: the winner of every row (the coup table's column)
    winner_column: npt.NDArray[Any]

    @cached_property
    def codes(self) -> list[list[int]]:
        """``codes[bet][row]``: lists, fast to read one hand at a time."""
        return [codes.tolist() for codes in self.code_arrays]

    @cached_property
    def winners(self) -> list[str]:
        """``winners[row]``, one str object per winner name shared by the rows (not one
        per row: 5.7 MB more)."""
        names, winner = np.unique(self.winner_column, return_inverse=True)
        shared = [str(name) for name in names.tolist()]
        return [shared[w] for w in winner.reshape(-1).tolist()]

    def row(self, player: Sequence[int], banker: Sequence[int]) -> int | None:
        """The row of a legal coup with these values in dealt order, else None."""
        if not 2 <= len(player) <= 3 or not 2 <= len(banker) <= 3:
            return None
        p1, p2 = (player[0], player[1]) if player[0] <= player[1] else (player[1], player[0])
        b1, b2 = (banker[0], banker[1]) if banker[0] <= banker[1] else (banker[1], banker[0])
        p3 = player[2] if len(player) == 3 else 10
        b3 = banker[2] if len(banker) == 3 else 10
        found = int(self.rows[coup_code(p1, p2, p3, b1, b2, b3)])
        return found if found >= 0 else None


@cache
def coup_lookup(model: Model) -> CoupIndex:
    """The :class:`CoupIndex` of a model's tableau and bets."""
    tableau = model.profile.tableau
    assert tableau is not None
    table = coups(tableau)
    digits = np.concatenate([table.player, table.banker], axis=1)
    digits = np.where(digits < 0, 10, digits)
    code = coup_code(*(digits[:, column].astype(np.int64) for column in range(6)))
    rows = np.full(CODES, -1, dtype=np.int32)
    rows[code] = np.arange(len(table), dtype=np.int32)
    if model.card_level:
        return CoupIndex(rows, (), np.zeros(0, dtype=np.str_))
    return CoupIndex(rows, tuple(np.asarray(settle_codes(b.bet, table.features)[0],
                                            dtype=np.int64) for b in model.bets),
                     table.features["winner"])


@cache
def coup_labels(model: Model, i: int) -> npt.NDArray[np.int16] | None:
    """Bet ``i``'s label on every coup of the model's coup table, for a bet whose lines read
    no card (as :func:`coup_lookup` gives every bet of a model that reads none): int16,
    207 kB a bet (None: a bet of 2**15 labels or more)."""
    b = model.bets[i]
    tableau = model.profile.tableau
    assert tableau is not None and not b.bet.card_level
    if len(b.labels) >= 1 << 15:
        return None
    codes, results = settle_codes(b.bet, coups(tableau).features)
    label: npt.NDArray[np.int16] = np.array([b.label(r) for r in results],
                                            dtype=np.int16)[np.asarray(codes, dtype=np.int64)]
    return label
