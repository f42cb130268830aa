"""The residue walk (tabled last step, lazy reductions, one backward fold per level) gives
the compiled walk's residues exactly; each side's primes by its own bound give the same
exact values as one bound for all."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from analyzer.choice.table.dealt import kernels, residues
from analyzer.choice.table.dealt.game import DealtSubgame, _split, _whole, dealt_subgame
from analyzer.choice.table.exact.evaluation import Integers, evaluate, exact_counterfactual
from analyzer.choice.table.exact.ring import Modular
from analyzer.choice.table.tree import LUCKY9

ONE_DECK = (16, 4, 4, 4, 4, 4, 4, 4, 4, 4)
PRIME = 2147483629


def _profile(game: DealtSubgame, seed: int) -> Integers:
    """Random draw probabilities with denominators up to 10**6, some cells pure."""
    rng = random.Random(seed)

    def draw() -> Fraction:
        return rng.choice([Fraction(0), Fraction(1), Fraction(rng.randrange(1, 10**6), 10**6)])

    seats = [[[draw() for _ in game.seat_classes] for _ in range(2**k)]
             for k in range(game.live)]
    bank = [[draw() for _ in range(game.vectors)]
            for _ in game.bank_classes]
    return Integers.of(seats, bank)


def _compiled(g: DealtSubgame, profile: Integers,
              ring: Modular) -> tuple[list[np.ndarray], np.ndarray]:
    """The compiled walk (kernels.forward, terminal, backward), per holding."""
    falling, order = g.arrays(ring)
    holdings = g.levels.holdings
    m, index = g.live, np.asarray(g.seat_index)
    coef = np.zeros((m, max(1, 2 ** (m - 1)), len(index), 2), dtype=np.int64)
    for k, s in enumerate(profile.seats):
        coef[k, :2**k] = ring.mul(ring.encode(s)[:, index, :], order[None, :, None])
    bank = ring.encode(profile.bank)[np.asarray(g.bank_index)]
    nxt, starts = g.levels.stacked_next()
    weights, offsets, q = kernels.forward(nxt, starts, holdings.total, coef, m, ring.prime, True)
    last = weights[offsets[m]:offsets[m + 1]].reshape(2**m, -1)
    z, u = kernels.terminal(g.levels.compositions[m], np.asarray(g.counts),
                            holdings.usage, holdings.total, order, falling, g.stock,
                            bank, q, last, ring.prime, True, True, False, _whole(bank, ring.prime))
    flat = kernels.backward(m, nxt, starts, holdings.total, order, coef, z, weights, offsets,
                            ring.prime)
    return _split(flat, m, len(index)), u


TWO_DECKS = tuple(2 * n for n in ONE_DECK)


@pytest.mark.parametrize(("counts", "by", "tabled"), [
    ((15, 4, 4, 4, 4, 4, 4, 4, 4, 3), "total", "matrix"),
    ((15, 4, 4, 4, 4, 4, 4, 4, 4, 3), "cards", "pairs"),
    (TWO_DECKS, "total", "pairs")])  # two decks: the matrix's bound is past 2**52
def test_the_residue_walk_gives_the_compiled_walks_residues(counts: tuple[int, ...], by: str,
                                                            tabled: str) -> None:
    game = dealt_subgame(LUCKY9, counts, 3, by, "test")
    profile = _profile(game, 7)
    ring = Modular(PRIME)
    seat_play = [ring.encode(a) for a in profile.seats]
    bank_play = ring.encode(profile.bank)
    assert game.exact()[0] == tabled
    want_seats, want_bank = _compiled(game, profile, ring)
    seats, bank = game.counterfactual(ring, seat_play, bank_play)
    classes, banks = len(game.seat_classes), len(game.bank_classes)
    for found, wanted in zip(seats, want_seats, strict=True):
        assert np.array_equal(found, game._classes(ring, wanted, 1, game.seat_index, classes))
    assert np.array_equal(bank, game._classes(ring, want_bank, 0, game.bank_index, banks))
    only_seats, nothing = game.counterfactual(ring, seat_play, bank_play, "seats")
    assert all(np.array_equal(a, b) for a, b in zip(only_seats, seats, strict=True))
    assert nothing.size == 0
    assert np.array_equal(game.counterfactual(ring, seat_play, bank_play, "bank")[1], bank)
    assert np.any(bank != 0) and any(np.any(s != 0) for s in seats)


def test_each_sides_own_primes_give_the_single_bounds_exact_values() -> None:
    game = dealt_subgame(LUCKY9, ONE_DECK, 3, "total", "1 deck")
    profile = _profile(game, 11)
    by_side, scales = evaluate(game, profile)
    seats = [[[Fraction(int(w[1]), int(w.sum())) for w in row] for row in rows]
             for rows in profile.seats]
    bank = [[Fraction(int(w[1]), int(w.sum())) for w in row] for row in profile.bank]
    seat_values, bank_values = exact_counterfactual(game, seats, bank)  # one bound for all
    flat = [v for rows in seat_values for row in rows for cell in row for v in cell]
    flat += [v for rows in bank_values for row in rows for v in row]
    at, found = 0, []
    for k in range(game.live + 1):
        size = (2**k * len(game.seat_classes) if k < game.live
                else len(game.bank_classes) * game.vectors) * 2
        found += [Fraction(v, scales[k]) for v in by_side[at:at + size]]
        at += size
    assert found == flat and any(found)


def test_the_tables_stop_where_their_bounds_or_sizes_do() -> None:
    game = dealt_subgame(LUCKY9, ONE_DECK, 2, "total", "1 deck")
    holdings = game.levels.holdings
    compositions = game.levels.compositions[2]
    matrix = residues.exact_matrix(compositions, game.counts, holdings.usage, holdings.total,
                                   holdings.order, game.stock, game.bank_index,
                                   len(game.bank_classes), 2)
    assert matrix is not None
    assert 0 < int(np.abs(matrix).max()) <= residues._bound(compositions, game.counts, game.stock)
    assert residues.exact_matrix(compositions, game.counts, holdings.usage, holdings.total,
                                 holdings.order, game.stock, game.bank_index, 50, 2) is None
    assert residues.exact_matrix(compositions, game.counts, holdings.usage, holdings.total,
                                 holdings.order, game.stock, game.bank_index,
                                 len(game.bank_classes), residues.MAX_EXACT_LIVE + 1) is None
    assert residues.pair_tables(compositions, game.counts, holdings.usage, holdings.total,
                                holdings.order, game.stock, residues.MAX_EXACT_LIVE + 1) is None
