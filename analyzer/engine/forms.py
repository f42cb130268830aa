"""Exact forms for bets on the hands' first two cards: two-card quadratic forms (one hand)
and four-card forms (both hands), evaluated on many depleted shoes at once.

By exchangeability any two (four) positions of a shuffled shoe have the same joint
distribution as the first two (four) cards dealt, so such a bet's result on a shoe of 52
card counts is a quadratic (quartic) polynomial in the counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from analyzer.engine import backend
from analyzer.engine.cardbets import hand_card_features, pair_feature_columns
from analyzer.errors import AnalyzerError
from analyzer.rules.bets import settle_codes
from analyzer.rules.cards import DECK
from analyzer.rules.profile import Profile

__all__ = ["CARD_VALUES", "FormSet", "FourCardForm", "SparseForms", "TwoCardForm",
           "first_two_card_features", "four_card_features", "two_card_hand"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Point value of each card index 0-51.
CARD_VALUES: IntArray = np.array([card.points for card in DECK], dtype=np.int64)


#: Point-value features of one hand that its first two cards decide (with the card-level
#: ones of :func:`analyzer.engine.cardbets.hand_card_features`).
_TWO_CARD_VALUE_FEATURES = ("two_card_total", "low_value", "high_value", "pair_value")


def first_two_card_features(hand: str) -> dict[str, npt.NDArray[Any]]:
    """Every feature one hand's first two cards decide, for each ordered card pair.

    Rows are the 2704 ordered pairs ``first * 52 + second``: the card-level features and
    the point-value ones (two-card total, low and high value, pair of values).
    """

    columns = dict(pair_feature_columns(hand))
    first = np.repeat(CARD_VALUES, 52)
    second = np.tile(CARD_VALUES, 52)
    columns[f"{hand}_two_card_total"] = (first + second) % 10
    columns[f"{hand}_low_value"] = np.minimum(first, second)
    columns[f"{hand}_high_value"] = np.maximum(first, second)
    columns[f"{hand}_pair_value"] = first == second
    return columns


def two_card_hand(profile: Profile, index: int) -> str | None:
    """The hand (``"player"`` or ``"banker"``) whose first two cards alone settle a bet.

    None when the bet reads anything else (the other hand, third cards, the outcome).
    """
    bet = profile.bets[index]
    for hand in ("player", "banker"):
        names = {f"{hand}_{name}" for name in _TWO_CARD_VALUE_FEATURES}
        names.update(hand_card_features(hand, DECK[0], DECK[1]))
        if bet.features and bet.features <= names:
            return hand
    return None


@dataclass(frozen=True)
class TwoCardForm:
    """Exact per-result probabilities of one bet on one hand's first two cards.

    By exchangeability a hand's first two cards are a uniform ordered pair of distinct
    physical cards of the shoe, so the probability of result ``r`` from a shoe of card
    counts ``n`` (``N`` cards) is the quadratic form
    ``(n' M_r n - sum_i n_i M_r[i, i]) / (N (N - 1))`` with ``M_r[i, j] = 1`` where the
    ordered pair (i, j) settles to ``r`` (the bet's pay rule applied per pair). Cards the bet
    cannot tell apart (equal rows and columns in every ``M_r``) form one class: with ``m``
    the counts per class and ``G_r`` the forms between classes the same sums are
    ``m' G_r m - sum_c m_c G_r[c, c]``. Numerators are integer sums below 2**53, exact in
    float64; the one division rounds (relative error below 1e-15).
    """

    hand: str
    #: (52, classes): 1 where a card is in a class
    classes: FloatArray
    #: (classes, results x classes): column ``r * classes + d`` is column ``d`` of ``G_r``
    stacked: FloatArray
    #: (results, classes): the diagonals of each ``G_r``
    diagonals: FloatArray
    results: int

    @classmethod
    def for_bet(cls, profile: Profile, index: int) -> TwoCardForm | None:
        """Compile a bet's forms (result codes as :func:`analyzer.rules.bets.settle_codes`)."""

        hand = two_card_hand(profile, index)
        if hand is None:
            return None
        bet = profile.bets[index]
        codes, labels = settle_codes(bet, first_two_card_features(hand))
        codes = np.broadcast_to(np.asarray(codes, dtype=np.int64), (52 * 52,))
        results = len(labels)
        indicator = np.zeros((results, 52, 52), dtype=np.float64)
        indicator[codes, np.repeat(np.arange(52), 52), np.tile(np.arange(52), 52)] = 1.0
        # a card's rows and columns in every M_r: equal for cards of one class
        signature = np.concatenate([indicator.transpose(1, 0, 2).reshape(52, -1),
                                    indicator.transpose(2, 0, 1).reshape(52, -1)], axis=1)
        _, first, of_card = np.unique(signature, axis=0, return_index=True,
                                      return_inverse=True)
        size = first.size
        classes = np.zeros((52, size))
        classes[np.arange(52), of_card.reshape(-1)] = 1.0
        reduced = indicator[:, first][:, :, first]  # (results, classes, classes)
        stacked = np.ascontiguousarray(reduced.transpose(1, 0, 2).reshape(size, results * size))
        diagonals = np.ascontiguousarray(reduced[:, np.arange(size), np.arange(size)])
        return cls(hand, classes, stacked, diagonals, results)

    def ways(self, card_counts: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Rows of 52 card counts -> per row the ordered card pairs of each result code
        and of all (``N (N - 1)``): exact integers in float64."""
        counts = np.asarray(card_counts, dtype=np.float64)
        if counts.ndim != 2 or counts.shape[1] != 52:
            raise AnalyzerError("shoes must be rows of 52 card counts")
        size = counts.sum(axis=1)
        if (size < 2).any():
            raise AnalyzerError("every shoe needs at least 2 cards for a hand's first two")
        return self.quadratic(counts @ self.classes), size * (size - 1)

    def quadratic(self, m: FloatArray) -> FloatArray:
        """Per row of class counts ``m`` the ordered card pairs of each result code."""
        # (exact integer sums: any order gives the same floats)
        quadratic: FloatArray = np.einsum("nrc,nc->nr", (m @ self.stacked).reshape(
            -1, self.results, self.classes.shape[1]), m)
        quadratic -= m @ self.diagonals.T
        return quadratic

    def evaluate(self, card_counts: npt.ArrayLike) -> FloatArray:
        """Rows of 52 card counts -> per row the probability of each result code."""
        ways, total = self.ways(card_counts)
        out: FloatArray = ways / total[:, None]
        return out


def four_card_features() -> frozenset[str]:
    """The features the first two cards of Player and of Banker decide (no drawing)."""

    names: set[str] = set()
    for hand in ("player", "banker"):
        names.update(f"{hand}_{name}" for name in _TWO_CARD_VALUE_FEATURES)
        names.update(hand_card_features(hand, DECK[0], DECK[1]))
    return frozenset(names)


def _four_card_classes(profile: Profile, index: int,
                       hand: str) -> tuple[IntArray, IntArray, dict[str, npt.NDArray[Any]]]:
    """Ordered card pairs of one hand grouped by the truth of every comparison on it.

    Returns the class of each of the 2704 ordered pairs, one representative pair per
    class, and the hand's feature columns.
    """
    columns = first_two_card_features(hand)
    prefix = hand + "_"
    parts = [np.zeros(52 * 52, dtype=np.int64)]
    for line in profile.bets[index].lines:
        for name, test in line.when.atoms:
            if name.startswith(prefix):
                truth = np.broadcast_to(np.asarray(test(columns), dtype=bool), (52 * 52,))
                parts.append(truth.astype(np.int64))
    _, first, inverse = np.unique(np.column_stack(parts), axis=0, return_index=True,
                                  return_inverse=True)
    return inverse.reshape(-1).astype(np.int64), first.astype(np.int64), columns


@dataclass(frozen=True)
class FourCardForm:
    """Exact per-result probabilities of a bet on both hands' first two cards.

    By exchangeability Player's and Banker's first two cards are a uniform ordered sample
    of four distinct physical cards. Group each hand's 2704 ordered card pairs into the
    classes the bet's comparisons tell apart (``I_p`` for Player, ``J_b`` for Banker, 0/1
    52 x 52 indicators) and settle every class pair once (highest-line rule included):
    ``G_r[p, b] = 1`` when it gives result ``r``. With ``n`` the card counts, ``N`` their
    sum and ``w_ij = n_i (n_j - [i = j])``, Banker drawing (l, m) after Player took
    ``a = e_i + e_j`` has ``(n_l - a_l)(n_m - a_m - [l = m])`` ways, and summing over a class::

        sum_J = V_b - u_b[i] - u_b[j] + c_b(i, j),   V_b = sum J_lm w_lm,
        u_b = (J_b + J_b') n,   c_b(i, j) = 2 J_ii + 2 J_jj + J_ij + J_ji

    so the ordered draws of result ``r`` are the quartic::

        C_r = sum_{p,b} G_r[p, b] (W_p V_b - Y_p . u_b) + sum_ij K_r[i, j] w_ij

    with ``W_p = sum I_p w``, ``Y_p = n o ((I_p + I_p') n - 2 diag I_p)`` and the constant
    ``K_r[i, j] = sum_{p,b} G_r[p, b] I_p[i, j] c_b(i, j)``; the probability is
    ``C_r / (N (N-1) (N-2) (N-3))``. Every intermediate is an integer below 2**53, exact in
    float64; the one division rounds (relative error below 1e-15).
    """

    #: (52, classes x 52): block ``p`` is ``I_p + I_p'`` (Player), same for Banker
    player_sym: FloatArray
    player_diag: FloatArray
    banker_sym: FloatArray
    banker_diag: FloatArray
    #: (Player classes x Banker classes, results): ``G``
    settle: FloatArray
    #: (52, results x 52) and (results, 52): the constant forms ``K_r`` and their diagonals
    constant: FloatArray
    constant_diag: FloatArray
    results: int
    #: the result of each code (as :func:`analyzer.rules.bets.settle_codes` labels them)
    labels: tuple[tuple[int, ...], ...]

    @classmethod
    def for_bet(cls, profile: Profile, index: int) -> FourCardForm | None:
        """Compile a bet's forms (result codes as :func:`analyzer.rules.bets.settle_codes`).

        None unless every condition reads only features of the two hands' first two cards.
        """
        bet = profile.bets[index]
        names = four_card_features()
        if not bet.features or not bet.features <= names:
            return None
        player, player_rep, player_columns = _four_card_classes(profile, index, "player")
        banker, banker_rep, banker_columns = _four_card_classes(profile, index, "banker")
        p_size, b_size = player_rep.size, banker_rep.size
        features: dict[str, npt.NDArray[Any]] = {}
        for name in bet.features:
            if name.startswith("player_"):
                features[name] = np.repeat(player_columns[name][player_rep], b_size)
            else:
                features[name] = np.tile(banker_columns[name][banker_rep], p_size)
        codes, labels = settle_codes(bet, features)
        codes = np.broadcast_to(np.asarray(codes, dtype=np.int64), (p_size * b_size,))
        results = len(labels)
        settle = np.zeros((p_size * b_size, results))
        settle[np.arange(p_size * b_size), codes] = 1.0

        def indicators(of_pair: IntArray, size: int) -> FloatArray:
            out = np.zeros((size, 52 * 52))
            out[of_pair, np.arange(52 * 52)] = 1.0
            return out.reshape(size, 52, 52)

        ip = indicators(player, p_size)
        jb = indicators(banker, b_size)
        diagonal = np.arange(52)
        jdiag = jb[:, diagonal, diagonal]  # (b, 52)
        # c_b(i, j) for every Banker class: (b, 52, 52)
        c = 2 * jdiag[:, :, None] + 2 * jdiag[:, None, :] + jb + jb.transpose(0, 2, 1)
        grid = settle.reshape(p_size, b_size, results)
        constant = np.einsum("pbr,pij,bij->rij", grid, ip, c)

        def stacked(m: FloatArray) -> FloatArray:
            sym = m + m.transpose(0, 2, 1)
            return np.ascontiguousarray(sym.transpose(1, 0, 2).reshape(52, -1))

        return cls(stacked(ip), np.ascontiguousarray(ip[:, diagonal, diagonal]),
                   stacked(jb), jdiag.copy(),
                   settle, stacked(constant) / 2,
                   np.ascontiguousarray(constant[:, diagonal, diagonal]), results,
                   tuple(tuple(label) for label in labels))

    def ways(self, card_counts: npt.ArrayLike) -> tuple[FloatArray, FloatArray]:
        """Rows of 52 card counts -> per row the ordered draws of four cards of each result
        code and of all (``N (N-1) (N-2) (N-3)``): exact integers in float64."""
        n = np.asarray(card_counts, dtype=np.float64)
        if n.ndim != 2 or n.shape[1] != 52:
            raise AnalyzerError("shoes must be rows of 52 card counts")
        size = n.sum(axis=1)
        if (size < 4).any():
            raise AnalyzerError("every shoe needs at least 4 cards for both hands' first two")
        rows = n.shape[0]
        p_sym = (n @ self.player_sym).reshape(rows, -1, 52)
        b_sym = (n @ self.banker_sym).reshape(rows, -1, 52)
        # W_p and V_b: quadratic forms sum I w = (n . (I + I')n) / 2 - diag(I) . n
        player_ways = (p_sym * n[:, None, :]).sum(axis=2) / 2 - n @ self.player_diag.T
        banker_ways = (b_sym * n[:, None, :]).sum(axis=2) / 2 - n @ self.banker_diag.T
        y = n[:, None, :] * (p_sym - 2 * self.player_diag[None])
        grid = player_ways[:, :, None] * banker_ways[:, None, :]
        grid -= np.einsum("npk,nbk->npb", y, b_sym, optimize=False)
        ways = grid.reshape(rows, -1) @ self.settle
        # K_r is not symmetric: n' K n from its symmetrised stack, minus diag(K) . n
        k_sym = (n @ self.constant).reshape(rows, self.results, 52)
        ways += (k_sym * n[:, None, :]).sum(axis=2) - n @ self.constant_diag.T
        return ways, size * (size - 1) * (size - 2) * (size - 3)

    def evaluate(self, card_counts: npt.ArrayLike) -> FloatArray:
        """Rows of 52 card counts -> per row the probability of each result code."""
        ways, total = self.ways(card_counts)
        out: FloatArray = ways / total[:, None]
        return out


class SparseForms(NamedTuple):
    """Distinct two-card forms as lists of their nonzero entries, for the fused loop
    (:func:`analyzer.engine.kernels.two_card_probabilities`).

    Every ordered pair of cards settles to exactly one result, so the results' ways add
    up to ``N (N - 1)``: a form's *default* result (the one with the most class pairs) is
    that minus the others' ways, and only the others' entries are kept: ``m_c m_d`` for
    each class pair (c, d) settling to result r, less ``m_c`` for each class c whose pairs
    with itself do. Every term is an integer below 2**53, so the ways are the numpy
    path's exact integers whatever the order, and each probability the same float.
    """

    #: (forms, 52): each card's class in each form
    class_of: IntArray
    #: where each form's classes, results, entries and diagonal entries begin (forms + 1)
    class_start: IntArray
    result_start: IntArray
    entry_start: IntArray
    diagonal_start: IntArray
    #: each form's default result
    default: IntArray
    #: the entries: class c, class d, result (without the default's)
    entry: IntArray
    #: the diagonal entries: class, result (without the default's)
    diagonal: IntArray

    @classmethod
    def of(cls, forms: list[TwoCardForm]) -> SparseForms:
        """The entries of each form."""
        class_of = np.zeros((len(forms), 52), dtype=np.int64)
        entries: list[IntArray] = []
        diagonals: list[IntArray] = []
        defaults: list[int] = []
        for f, form in enumerate(forms):
            size = form.classes.shape[1]
            class_of[f] = form.classes.argmax(axis=1)
            grid = form.stacked.reshape(size, form.results, size).transpose(1, 0, 2)
            default = int(grid.sum(axis=(1, 2)).argmax())
            r, c, d = np.nonzero(grid)
            keep = r != default
            entries.append(np.stack([c[keep], d[keep], r[keep]], axis=1))
            r, c = np.nonzero(form.diagonals)
            keep = r != default
            diagonals.append(np.stack([c[keep], r[keep]], axis=1))
            defaults.append(default)

        def starts(sizes: list[int]) -> IntArray:
            return np.cumsum([0, *sizes]).astype(np.int64)

        return cls(class_of, starts([f.classes.shape[1] for f in forms]),
                   starts([f.results for f in forms]), starts([len(e) for e in entries]),
                   starts([len(d) for d in diagonals]), np.array(defaults, dtype=np.int64),
                   np.concatenate(entries).astype(np.int64) if entries else
                   np.zeros((0, 3), dtype=np.int64),
                   np.concatenate(diagonals).astype(np.int64) if diagonals else
                   np.zeros((0, 2), dtype=np.int64))


class FormSet:
    """The forms of several bets evaluated on the same shoes together: each distinct
    two-card form once (a bet on Player's first two cards and its twin on Banker's have
    the same form), the class counts of all of them in one product and the shoes' sizes
    once. Every sum is an exact integer, so each probability is the one its form gives
    alone. ``forms``: (bet, form); ``columns``: each bet's result columns."""

    def __init__(self, forms: list[tuple[int, TwoCardForm | FourCardForm]],
                 columns: list[slice]) -> None:
        self.others = [(columns[i], f) for i, f in forms if not isinstance(f, TwoCardForm)]
        found: dict[tuple[Any, ...], int] = {}
        self.two_card: list[TwoCardForm] = []
        self.targets: list[tuple[slice, int]] = []  # (columns, distinct two-card form)
        for i, form in forms:
            if isinstance(form, TwoCardForm):
                key = (form.results, form.classes.shape, form.stacked.shape,
                       form.classes.tobytes(), form.stacked.tobytes(),
                       form.diagonals.tobytes())
                if key not in found:
                    found[key] = len(self.two_card)
                    self.two_card.append(form)
                self.targets.append((columns[i], found[key]))
        self.bounds = np.cumsum([0, *(f.classes.shape[1] for f in self.two_card)]).tolist()
        self.classes = np.concatenate([f.classes for f in self.two_card], axis=1) \
            if self.two_card else np.zeros((52, 0))
        self.sparse = SparseForms.of(self.two_card)

    def evaluate_into(self, out: FloatArray, card_counts: FloatArray) -> None:
        """Rows of 52 card counts (each of at least two cards) -> each bet's result
        probabilities, written into its columns of ``out``."""
        for part, form in self.others:
            out[:, part] = form.evaluate(card_counts)
        if not self.two_card:
            return
        if backend.loaded():
            from analyzer.engine import kernels  # numba: only once it is loaded

            odds = kernels.two_card_probabilities(np.ascontiguousarray(card_counts),
                                                  self.sparse)
            found = [odds[:, a:b] for a, b in zip(self.sparse.result_start[:-1].tolist(),
                                                  self.sparse.result_start[1:].tolist(),
                                                  strict=True)]
        else:
            size = card_counts.sum(axis=1)
            total = (size * (size - 1))[:, None]
            counts = card_counts @ self.classes
            found = [form.quadratic(counts[:, a:b]) / total for form, a, b in zip(
                self.two_card, self.bounds[:-1], self.bounds[1:], strict=True)]
        for part, k in self.targets:
            out[:, part] = found[k]
