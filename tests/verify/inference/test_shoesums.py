"""Shuffle sums merged in order, as one input read whole; saved ones read back checked."""

from __future__ import annotations

from dataclasses import asdict, replace

import pytest

from analyzer.dealing.shuffle import NEW_DECK_ORDER
from analyzer.engine.lookup import build_model
from analyzer.errors import AnalyzerError
from analyzer.verify.inference.shoesums import merge_sums, sums_from_json
from analyzer.verify.inference.shuffle import ShuffleTally


def _tally(*shoes: list[int]) -> ShuffleTally:
    model = build_model("punto-banco", 1)
    tally = ShuffleTally(model, model.shoe.counts, False)
    for shoe in shoes:
        tally.add(shoe)
    return tally


def test_inputs_merged_in_order_give_the_sums_of_one() -> None:
    ordered = list(NEW_DECK_ORDER)
    shoes = [ordered, ordered[::-1], ordered[13:] + ordered[:13], ordered]
    whole = _tally(*shoes).sums()
    parts = [_tally(*shoes[:1]).sums(), None, _tally(*shoes[1:3]).sums(),
             _tally(*shoes[3:]).sums()]
    merged = merge_sums(parts)
    assert merged == whole
    assert merged is not None and merged.repeats == 1 and merged.carry_pairs == 3
    # old saved sums (no counts, no first and last shoes): added as before
    old = [replace(p, sketch_counts=(), sketch_cards=(), carry_fixed=None) for p in parts
           if p is not None]
    added = merge_sums(old)
    assert added is not None and added.repeats == 0 and added.carry_pairs == 1


def test_saved_sums_read_back_and_checked() -> None:
    sums = _tally(list(NEW_DECK_ORDER), list(NEW_DECK_ORDER)).sums()
    data = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(sums).items()}
    assert sums_from_json(data, "p.json", "shuffle") == sums
    with pytest.raises(AnalyzerError, match="sketch_counts and sketch_cards"):
        sums_from_json({**data, "sketch_counts": [1, 1, 1]}, "p.json", "shuffle")
