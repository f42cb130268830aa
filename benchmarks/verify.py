"""``nine verify`` throughput: the independent and the shoe-aware models."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from analyzer.dealing.simulate import simulate
from analyzer.verify.run import verify_logs
from benchmarks.drift import four_card_benchmark


def benchmark(hands: int = 200_000, shoe_aware_hands: int = 20_000, seed: int = 1,
              folder: str | Path | None = None, card_hands: int = 0,
              four_card_hands: int = 0) -> dict[str, float]:
    """Speed of ``nine verify`` on one core, for ``make bench``.

    Simulates 8-deck punto banco shoes into a CSV log (not timed), then times the whole
    verification (reading, replay, statistics) with the independent model over about
    ``hands`` hands and the shoe-aware model over about ``shoe_aware_hands`` hands.
    With ``card_hands``, also the shoe-aware model of lucky-baccarat (card-level bets:
    pairs and colours by exact two-card quadratic forms) over about that many hands
    (keys ``lucky_shoe_aware_*``). With ``four_card_hands``, also the shoe-aware model of
    side-bets and nine-and-nines (bets on both hands' first two cards by exact four-card
    forms; keys ``side_bets_shoe_aware_*`` and ``nines_shoe_aware_*``). Returns hands per
    second for each, with the hand counts and wall times.
    """

    def timed(path: Path, model_name: str, profile: str, records: bool = False
              ) -> tuple[int, float]:
        # warm: compile the model once
        before = os.environ.pop("NINE_VERIFY_PATH", None)
        if records:
            os.environ["NINE_VERIFY_PATH"] = "records"
        try:
            verify_logs([str(path)], profile, model_name=model_name)
            start = time.perf_counter()
            verdict = verify_logs([str(path)], profile, model_name=model_name)
            return verdict.hands, time.perf_counter() - start
        finally:
            os.environ.pop("NINE_VERIFY_PATH", None)
            if before is not None:
                os.environ["NINE_VERIFY_PATH"] = before

    runs = [("replay", hands, "independent", "punto-banco"),
            ("shoe_aware", shoe_aware_hands, "shoe", "punto-banco")]
    if card_hands:
        runs.append(("lucky_shoe_aware", card_hands, "shoe", "lucky-baccarat"))
    if four_card_hands:
        runs.append(("side_bets_shoe_aware", four_card_hands, "shoe", "side-bets"))
        runs.append(("nines_shoe_aware", four_card_hands, "shoe", "nine-and-nines"))
    with tempfile.TemporaryDirectory(dir=folder) as scratch:
        results: dict[str, float] = {}
        for name, count, model_name, profile in runs:
            path = Path(scratch) / f"{name}.csv"
            with path.open("w", encoding="utf-8", newline="") as stream:
                simulate(profile, 8, max(1, round(count / 80.8)), seed, stream, "csv")
            dealt, seconds = timed(path, model_name, profile)
            if profile == "punto-banco":  # the record-by-record baseline, in this run
                results[f"{name}_records_seconds"] = timed(path, model_name, profile, True)[1]
            results[f"{name}_hands"] = dealt
            results[f"{name}_seconds"] = seconds
            results[f"{name}_hands_per_second"] = dealt / seconds
            if name == "replay":  # the same hands in other dialects, same model
                for dialect, other in dialects(path).items():
                    dealt, seconds = timed(other, "auto" if dialect == "bead_road" else
                                           model_name, profile)
                    results[f"{dialect}_hands"] = dealt
                    results[f"{dialect}_seconds"] = seconds
                    results[f"{dialect}_hands_per_second"] = dealt / seconds
    return results


def dialects(path: Path) -> dict[str, Path]:
    """A simulator CSV log as a European Excel export (``;``, headers in words, amounts in
    major units as decimals: ``1.95``) and as a bead road (one string of winners per shoe,
    under a shoe column), beside it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    titled = [name.replace("_", " ").title() for name in header]
    money = [i for i, name in enumerate(header) if name.endswith(("_stake", "_returned"))]

    def decimal(cells: list[str]) -> str:
        for i in money:
            if cells[i]:
                cells[i] = f"{int(cells[i]) // 100}.{int(cells[i]) % 100:02d}"
        return ";".join(cells)

    semicolon = path.with_name("semicolon.csv")
    semicolon.write_text(";".join(titled) + "\n" + "".join(
        decimal(line.split(",")) + "\n" for line in lines[1:]), encoding="utf-8")
    shoe, winner = header.index("shoe"), header.index("winner")
    shoes: dict[str, list[str]] = {}
    for line in lines[1:]:
        cells = line.split(",")
        shoes.setdefault(cells[shoe], []).append(cells[winner])
    road = path.with_name("road.csv")
    road.write_text("shoe,result\n" + "".join(f"{s},{''.join(w)}\n"
                                               for s, w in shoes.items()), encoding="utf-8")
    return {"semicolon": semicolon, "bead_road": road}


def bench(baseline_seconds: float) -> None:
    """``make bench`` figures of replay + statistics and shoe-aware hands/s."""

    figures = benchmark(200_000, 20_000, card_hands=20_000, four_card_hands=20_000)
    for key, label in (("replay", "independent model"), ("shoe_aware", "shoe-aware model")):
        seconds, records = figures[f"{key}_seconds"], figures[f"{key}_records_seconds"]
        print(f"  nine verify, {label}, {int(figures[f'{key}_hands']):,} hands, one core, "
              f"in-process {seconds:9.2f} s = {figures[f'{key}_hands_per_second']:,.0f} "
              f"hands/s; record by record {records:.2f} s = {records / seconds:.1f}x "
              f"(load {os.getloadavg()[0]:.2f}; {seconds / baseline_seconds:,.0f}x the "
              "enumeration baseline)")
    plain = figures["replay_hands_per_second"]
    for key, label in (("semicolon", "the same log as a ';' export, worded headers, "
                                     "decimal amounts"),
                       ("bead_road", "the same hands as a bead road (winners only)")):
        rate = figures[f"{key}_hands_per_second"]
        print(f"  nine verify, independent model, {label}, {int(figures[f'{key}_hands']):,} "
              f"hands {figures[f'{key}_seconds']:9.2f} s = {rate:,.0f} hands/s "
              f"({rate / plain:.2f}x the plain CSV)")
    print(f"  nine verify, shoe-aware model, lucky-baccarat (card-level bets), "
          f"{int(figures['lucky_shoe_aware_hands']):,} hands "
          f"{figures['lucky_shoe_aware_seconds']:9.2f} s"
          f"    = {figures['lucky_shoe_aware_hands_per_second']:,.0f} hands/s "
          "(target >= 10,000/s)")
    for key, label in (("side_bets", "side-bets"), ("nines", "nine-and-nines")):
        print(f"  nine verify, shoe-aware model, {label} (four-card forms), "
              f"{int(figures[f'{key}_shoe_aware_hands']):,} hands "
              f"{figures[f'{key}_shoe_aware_seconds']:9.2f} s"
              f"    = {figures[f'{key}_shoe_aware_hands_per_second']:,.0f} hands/s "
              "(target >= 10,000/s)")
    for name, rate in four_card_benchmark().items():
        print(f"  four-card forms, {name} (bets on both hands' first two cards), "
              f"10,000 depleted shoes = {rate:,.0f} compositions/s (target >= 10,000/s)")
