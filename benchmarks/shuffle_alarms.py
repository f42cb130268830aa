"""Measured false-alarm rates and detection of ``nine verify``'s shuffle tests.

``python -m benchmarks.shuffle_alarms [--runs N] [--shoes K] [--decks D] [--values]``
deals N seeded correct logs of K shoes with ``nine simulate`` (seeds 100000 + i), checks
each (``check_file``, the independent model: the shuffle sums do not depend on it), and
prints, per shuffle test, the share of logs it rejects at alpha 0.01, 0.05 and 0.10
(unadjusted: one test on its own), then the share of logs in which any shuffle test
rejects after Holm's adjustment across them. ``--faults`` then prints, per simulator
shuffle fault, the share of N faulty logs of the documented sample size that ``nine
verify`` (every test, Holm) fails with exit 1. The README's "Shuffle quality" table is
this script's output.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from analyzer.dealing.dialects import CARD_VALUE, token_card
from analyzer.dealing.simulate import simulate
from analyzer.engine.lookup import build_model
from analyzer.verify.check import check_file
from analyzer.verify.inference.shuffle import shuffle_tests
from analyzer.verify.inference.statistics import holm
from analyzer.verify.run import verify_logs
from analyzer.verify.shoes import shoe_composition
from analyzer.verify.verdict import EXIT_STATISTICS

ALPHAS = (0.01, 0.05, 0.10)
#: fault -> whole shoes per log at which the README documents its detection
DETECTION = {"repeat-seed": 2, "riffle-3": 1, "no-shuffle-between-shoes": 2}


def _values_log(path: Path) -> None:
    """Rewrite a CSV log's cards as point values (a values-only log)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    cards = [header.index(name) for name in ("player_cards", "banker_cards", "burn")]
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        for i in cards:
            cells[i] = " ".join(str(CARD_VALUE[token_card(t)]) for t in cells[i].split())
        out.append(",".join(cells))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def false_alarms(runs: int, shoes: int, decks: int, values: bool) -> None:
    """Print each shuffle test's rejection rate over seeded correct logs."""
    model = build_model("punto-banco", decks)
    composition = shoe_composition(model, values)
    rejected: dict[str, list[int]] = {}
    family = [0] * len(ALPHAS)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.csv"
        for i in range(runs):
            with path.open("w", encoding="utf-8", newline="") as stream:
                simulate("punto-banco", decks, shoes, 100_000 + i, stream, "csv")
            if values:
                _values_log(path)
            partial = check_file(path, model)
            assert partial.shuffle is not None
            tests = shuffle_tests(partial.shuffle, model, composition)
            for name, _, _, _, p in tests:
                counts = rejected.setdefault(name, [0] * len(ALPHAS))
                for k, alpha in enumerate(ALPHAS):
                    counts[k] += p < alpha
            adjusted = holm([p for *_, p in tests])
            for k, alpha in enumerate(ALPHAS):
                family[k] += min(adjusted) < alpha
    kind = "point values" if values else "cards"
    print(f"{runs} seeded correct logs of {shoes} {decks}-deck shoes ({kind}), "
          f"{time.perf_counter() - start:.0f} s; rejected at alpha "
          + " / ".join(f"{a:g}" for a in ALPHAS) + ":")
    for name, counts in rejected.items():
        print(f"  {name:36s} " + " / ".join(f"{n / runs:.4f}" for n in counts))
    print(f"  {'any, Holm across these tests':36s} "
          + " / ".join(f"{n / runs:.4f}" for n in family))


def detection(runs: int, decks: int) -> None:
    """Print how often each shuffle fault fails ``nine verify`` at its documented size."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        for fault, shoes in DETECTION.items():
            caught = 0
            for i in range(runs):
                with path.open("w", encoding="utf-8") as stream:
                    simulate("punto-banco", decks, shoes, 200_000 + i, stream, "jsonl",
                             (fault,))
                caught += verify_logs([str(path)], decks=decks).exit_code == EXIT_STATISTICS
            print(f"  {fault:26s} {shoes} shoe(s): caught in {caught}/{runs} logs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--shoes", type=int, default=2)
    parser.add_argument("--decks", type=int, default=8)
    parser.add_argument("--values", action="store_true")
    parser.add_argument("--faults", action="store_true")
    args = parser.parse_args()
    false_alarms(args.runs, args.shoes, args.decks, args.values)
    if args.faults:
        detection(max(args.runs // 10, 1), args.decks)


if __name__ == "__main__":
    main()
