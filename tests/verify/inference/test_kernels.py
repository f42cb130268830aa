"""The verifier's fused shoe-aware loops (numba) give the numpy reference's sums bit for
bit: the shuffle sums and the rank moments, however the shoes come cut."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analyzer.dealing.handlog import CARD_RANK, CARD_VALUE
from analyzer.engine import backend
from analyzer.engine.lookup import Model, build_model
from analyzer.verify.inference.moments import ShoeMoments, _Columns, run_terms
from analyzer.verify.inference.shoesums import ShuffleSums
from analyzer.verify.inference.shuffle import ShuffleTally
from analyzer.verify.shoes import shoe_composition

pytest.importorskip("numba")
from analyzer.verify.inference import kernels  # noqa: E402

RANKS = [CARD_RANK[c] - 1 for c in range(52)]


def _shoes(rng: np.random.Generator, model: Model, count: int) -> list[np.ndarray]:
    """Shoes of every length (none, one card, a few, most, all), some repeating the
    previous shoe's order (so runs carry over)."""
    deck = np.repeat(np.arange(52), model.shoe.counts)
    shoes: list[np.ndarray] = []
    for _ in range(count):
        k = int(rng.choice([0, 1, 2, 3, 5, 7, 40, len(deck) - 14, len(deck)]))
        shoe = rng.permutation(deck)[:k]
        if rng.random() < 0.2 and shoes and len(shoes[-1]) >= k:
            shoe = shoes[-1][:k].copy()
        shoes.append(shoe)
    return shoes


def _sums(monkeypatch: pytest.MonkeyPatch, fused: bool, model: Model, values: bool,
          shoes: list[np.ndarray], cuts: list[int]) -> tuple[ShuffleSums, list[int]]:
    # as if the engine's kernels were loaded (numba imported: the fused loops run), or not
    monkeypatch.setattr(backend, "loaded", lambda: fused)
    calls: list[str] = []
    for name in ("rank_rows", "shuffle_shoes"):
        kernel = getattr(kernels, name)
        monkeypatch.setattr(kernels, name, lambda *a, k=kernel, n=name: (calls.append(n),
                                                                        k(*a))[1])
    tally = ShuffleTally(model, shoe_composition(model, values), values)
    moments = ShoeMoments(model, values=values)
    categories = list(CARD_VALUE) if values else RANKS  # a values-only log: point values
    start = [0] * (10 if values else 13)
    for c, k in enumerate(model.shoe.counts):
        start[categories[c]] += k
    at = 0
    for cut in cuts:
        part = shoes[at:at + cut]
        at += cut
        if not part:
            break
        if cut == 1:
            tally.add(part[0].tolist())
        else:
            tally.add_shoes(np.concatenate(part).astype(np.int64),
                            np.cumsum([0] + [len(s) for s in part]).tolist())
        for shoe in part:
            moments.add_shoe(start, shoe, np.arange(len(shoe)) % 7 != 3, categories)
    result = tally.sums(), moments.rank_sums()
    assert set(calls) == ({"rank_rows", "shuffle_shoes"} if fused else set())
    return result


@pytest.mark.parametrize(("profile", "decks"), [("punto-banco", 8), ("punto-banco", 1),
                                                ("lucky-baccarat", 6)])
@pytest.mark.parametrize("values", [False, True])
def test_fused_loops_give_the_reference_sums(monkeypatch: pytest.MonkeyPatch, profile: str,
                                             decks: int, values: bool) -> None:
    model = build_model(profile, decks)
    rng = np.random.default_rng(decks * 2 + values)
    for _ in range(2):
        shoes = _shoes(rng, model, 150)
        cuts = [int(rng.choice([1, 3, 64, 100])) for _ in range(150)]
        reference = _sums(monkeypatch, False, model, values, shoes, cuts)
        fused = _sums(monkeypatch, True, model, values, shoes, cuts)
        assert reference[0].carry_runs > 0 and reference[0].pairs > 0
        assert any(reference[1])
        for field in dataclasses.fields(ShuffleSums):
            name = field.name
            assert getattr(fused[0], name) == getattr(reference[0], name), name
        assert fused[1] == reference[1]


def _loop_terms(result: np.ndarray, stakes: np.ndarray, starts: np.ndarray,
                moments: ShoeMoments) -> list[list[float]]:
    """The run terms of every bet by plain Python floats, in the documented order: per
    hand a bet's sums label after label from the first, the hands of a run in row order."""
    rows: list[list[float]] = []
    bounds = [*starts.tolist(), result.shape[0]]
    for r in range(len(starts)):
        per_bet: list[list[float]] = []
        for b, part in enumerate(moments.evaluator.bet_slices):
            nets = [float(x) for x in moments.nets[b]]
            k = len(nets)
            sums = [0.0] * (k + k * k + 4)
            for h in range(bounds[r], bounds[r + 1]):
                p = [float(x) for x in result[h, part]]
                mean, second = p[0] * nets[0], p[0] * nets[0] ** 2
                for i in range(1, k):
                    mean, second = mean + p[i] * nets[i], second + p[i] * nets[i] ** 2
                variance = second - mean * mean
                stake = float(stakes[h, b])
                terms = [*p, *(p[i] * p[j] for i in range(k) for j in range(k)), mean,
                         variance, stake * mean, stake * stake * variance]
                sums = [s + t for s, t in zip(sums, terms, strict=True)]
            for i in range(k):
                for j in range(k):
                    sums[k + i * k + j] = -sums[k + i * k + j] + (sums[i] if i == j else 0.0)
            per_bet.append(sums)
        rows.append([x for sums in per_bet for x in sums])
    return rows


@pytest.mark.parametrize("profile", ["punto-banco", "lucky-baccarat"])
def test_run_moments_are_the_reference_terms_bit_for_bit(profile: str) -> None:
    """Each run's moment terms: the fused loop, numpy's reference and plain Python floats
    in the documented order agree to the last bit (runs of 1 to 300 hands, stakes of any
    size), so the exact grid sums cannot depend on which one ran."""
    model = build_model(profile, 8)
    moments = ShoeMoments(model)
    layout = _Columns(moments.evaluator.bet_slices, moments.nets)
    rng = np.random.default_rng(7)
    n = 900
    deck = np.asarray(model.shoe.counts, dtype=np.float64)
    shoes = deck - rng.integers(0, 4, size=(n, 52))
    result = moments.evaluator.evaluate(shoes)
    stakes = rng.choice([0.0, 1.0, 25.0, 1e6, 0.1], size=(n, len(moments.sizes)))
    starts = np.unique(np.concatenate([[0], rng.integers(1, n, size=8), [n - 1]]))
    fused = kernels.run_moments(result, stakes, starts, layout)
    reference = run_terms(result, stakes, starts, layout)
    assert fused.shape == reference.shape == (len(starts), layout.width)
    assert np.array_equal(fused, reference)
    # the same numbers laid out per bet: compare each bet's sums with the Python loop
    loop = _loop_terms(result, stakes, starts, moments)
    for r in range(len(starts)):
        per_bet = [reference[r, where].tolist() for where in layout.sums]
        assert [x for sums in per_bet for x in sums] == loop[r]


@pytest.mark.parametrize("profile", ["punto-banco", "lucky-baccarat"])
def test_shoe_moments_give_the_same_sums_fused_or_not(profile: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole shoes of hands queued through ``add_rows``: every bet's exact sums are the same
    integers whether the fused loops run (numba loaded) or numpy's reference does."""
    model = build_model(profile, 8)
    rng = np.random.default_rng(11)
    n = 700
    rows = np.asarray(model.shoe.counts, dtype=np.int64) - rng.integers(0, 3, size=(n, 52))
    opens = np.zeros(n, dtype=bool)
    opens[[0, 90, 91, 400, 699]] = True
    stakes = rng.choice([0, 1, 25, 100], size=(n, len(model.bets)))
    found = {}
    for fused in (False, True):
        monkeypatch.setattr(backend, "loaded", lambda fused=fused: fused)
        moments = ShoeMoments(model)
        moments.add_rows(rows, stakes, opens)
        found[fused] = [moments.bet_sums(b) for b in range(len(moments.sizes))]
    assert found[True] == found[False]
    assert any(any(x != 0 for x in sums) for sums in found[True])
