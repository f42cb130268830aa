"""Verifying simulator logs: replaying every hand against the rules, exact per-hand
distributions, mergeable partial sums, statistical tests and the verdict with its exit code.

Modules, each importing only those before it: :mod:`~analyzer.verify.inference.statistics` (tests,
Holm, hands needed), :mod:`~analyzer.verify.partial` (mergeable sums, saved partials),
:mod:`~analyzer.verify.replay` (one hand's rules, settlement and payouts),
:mod:`~analyzer.verify.inference.moments` (shoe-aware expectations), :mod:`~analyzer.verify.shoes`
(per-shoe bookkeeping), :mod:`~analyzer.verify.check` (one file),
:mod:`~analyzer.verify.verdict` (tests, verdict, exit codes) and :mod:`~analyzer.verify.run`
(a whole run over many files).
"""

from analyzer.verify.partial import Partial, load_partial, save_partial
from analyzer.verify.run import collect, verify_logs
from analyzer.verify.verdict import (
    EXIT_INPUT,
    EXIT_PASS,
    EXIT_STATISTICS,
    EXIT_UNDERPOWERED,
    EXIT_VIOLATIONS,
    Verdict,
    exit_code,
    finish,
)

__all__ = ["collect", "exit_code", "EXIT_INPUT", "EXIT_PASS", "EXIT_STATISTICS",
           "EXIT_UNDERPOWERED", "EXIT_VIOLATIONS", "finish", "load_partial", "Partial",
           "save_partial", "Verdict", "verify_logs"]
