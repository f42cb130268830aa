"""Verifying simulator logs: replaying every hand against the rules, exact per-hand
distributions, mergeable partial sums, statistical tests and the verdict with its exit code.
"""

__all__: list[str] = []
