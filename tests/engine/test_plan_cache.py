"""Compiled plans on disk: found again, rebuilt when corrupt, skipped when unwritable,
never looked up under the name of another profile."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from analyzer.engine import plan_cache
from analyzer.engine.tally import TallyPlan
from analyzer.errors import AnalyzerError
from analyzer.rules.profile import load_profile

PROFILE = load_profile("punto-banco")


def _build_counter(plan: TallyPlan) -> tuple[list[int], object]:
    calls: list[int] = []

    def build() -> TallyPlan:
        calls.append(1)
        return plan

    return calls, build


@pytest.fixture()
def plan() -> TallyPlan:
    from analyzer.engine.odds import _odds_plan

    return _odds_plan(PROFILE.tableau, PROFILE.bets)


def _same(a: TallyPlan, b: TallyPlan) -> bool:
    return a.keys == b.keys and all(
        np.array_equal(getattr(a, name), getattr(b, name)) for name in plan_cache._ARRAYS)


def test_a_stored_plan_is_read_back_and_not_rebuilt(tmp_path: Path, plan: TallyPlan,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NINE_CACHE_DIR", str(tmp_path))
    calls, build = _build_counter(plan)
    first = plan_cache.cached_plan(PROFILE.tableau, PROFILE.bets, "odds", build)  # type: ignore[arg-type]
    second = plan_cache.cached_plan(PROFILE.tableau, PROFILE.bets, "odds", build)  # type: ignore[arg-type]
    assert calls == [1]
    assert _same(first, plan) and _same(second, plan)
    assert len(list((tmp_path / "plans").glob("*.npz"))) == 1


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "wrong-digest"])
def test_a_corrupt_plan_is_rebuilt_and_replaced(tmp_path: Path, plan: TallyPlan,
                                               monkeypatch: pytest.MonkeyPatch,
                                               damage: str) -> None:
    monkeypatch.setenv("NINE_CACHE_DIR", str(tmp_path))
    calls, build = _build_counter(plan)
    plan_cache.cached_plan(PROFILE.tableau, PROFILE.bets, "odds", build)  # type: ignore[arg-type]
    (path,) = (tmp_path / "plans").glob("*.npz")
    data = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(data[:len(data) // 2])
    elif damage == "flip":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:])
    elif damage == "garbage":
        path.write_bytes(b"not a plan at all")
    else:
        bad = replace(plan, entry_term=plan.entry_term + 10**6)
        plan_cache.write_plan(path, bad)  # a valid digest over out-of-range indices
    with pytest.raises(AnalyzerError):
        plan_cache.read_plan(path)
    again = plan_cache.cached_plan(PROFILE.tableau, PROFILE.bets, "odds", build)  # type: ignore[arg-type]
    assert calls == [1, 1]
    assert _same(again, plan)
    assert _same(plan_cache.read_plan(path), plan)


def test_an_unwritable_folder_means_no_cache(tmp_path: Path, plan: TallyPlan,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder should be")
    monkeypatch.setenv("NINE_CACHE_DIR", str(blocked / "cache"))
    calls, build = _build_counter(plan)
    for _ in range(2):
        assert _same(plan_cache.cached_plan(PROFILE.tableau, PROFILE.bets, "odds", build),  # type: ignore[arg-type]
                     plan)
    assert calls == [1, 1]


def test_the_cache_can_be_turned_off_and_defaults_to_the_user_cache(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NINE_CACHE_DIR", "off")
    assert plan_cache.cache_folder() is None
    monkeypatch.delenv("NINE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert plan_cache.cache_folder() == tmp_path / "nine-analyzer"
    assert not str(plan_cache.cache_folder()).startswith(
        str(Path(plan_cache.__file__).parent.parent))


def test_the_fingerprint_follows_the_rules_not_the_names() -> None:
    fingerprint = plan_cache.plan_fingerprint(PROFILE.tableau, PROFILE.bets, "odds")
    renamed = replace(PROFILE.bets[0], name="another name", note="x")
    assert plan_cache.plan_fingerprint(PROFILE.tableau, (renamed, *PROFILE.bets[1:]),
                                       "odds") == fingerprint
    repaid = replace(PROFILE.bets[2], lines=tuple(
        replace(line, pays=line.pays + 1) for line in PROFILE.bets[2].lines))
    assert plan_cache.plan_fingerprint(PROFILE.tableau, (*PROFILE.bets[:2], repaid),
                                       "odds") != fingerprint
    other = load_profile("ez-baccarat")
    assert plan_cache.plan_fingerprint(other.tableau, other.bets, "odds") != fingerprint
    assert os.path.basename(fingerprint) == fingerprint


def _arrays_counter() -> tuple[list[int], object]:
    calls: list[int] = []

    def build() -> dict[str, np.ndarray]:
        calls.append(1)
        return {"a": np.arange(5, dtype=np.int64), "b": np.linspace(0, 1, 3)}

    return calls, build


def _in_range(arrays: dict[str, np.ndarray]) -> None:
    if arrays["a"].max() >= 5:
        raise AnalyzerError("out of range")


@pytest.mark.parametrize("damage", [None, "flip", "garbage", "out-of-range"])
def test_cached_arrays_are_read_back_or_rebuilt_when_damaged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str | None) -> None:
    monkeypatch.setenv("NINE_CACHE_DIR", str(tmp_path))
    calls, build = _arrays_counter()
    first = plan_cache.cached_arrays("evaluators", "f" * 40, build, _in_range)  # type: ignore[arg-type]
    (path,) = (tmp_path / "evaluators").glob("*.npz")
    data = path.read_bytes()
    if damage == "flip":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 0xFF]) + data[middle + 1:])
    elif damage == "garbage":
        path.write_bytes(b"not arrays")
    elif damage == "out-of-range":  # a sound digest over an index out of range
        monkeypatch.setattr(plan_cache, "cache_folder", lambda: tmp_path / "other")
        plan_cache.cached_arrays("evaluators", "f" * 40,
                                 lambda: {"a": np.arange(9, dtype=np.int64), "b": first["b"]},
                                 lambda arrays: None)
        path.write_bytes((tmp_path / "other" / "evaluators" / path.name).read_bytes())
        monkeypatch.undo()
        monkeypatch.setenv("NINE_CACHE_DIR", str(tmp_path))
    again = plan_cache.cached_arrays("evaluators", "f" * 40, build, _in_range)  # type: ignore[arg-type]
    assert calls == ([1] if damage is None else [1, 1])
    assert np.array_equal(again["a"], np.arange(5)) and np.array_equal(again["b"], first["b"])
    assert again["a"].dtype == np.int64 and set(again) == {"a", "b"}
