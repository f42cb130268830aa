"""Rendering the outcome of ``nine verify``: text, Markdown, JSON and JUnit XML.

Every format says what was *not* checked (first, in the text report: ``PASS - payouts NOT
checked: ...``) and what each column of the logs was used for, or that it was ignored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from analyzer.errors import AnalyzerError
from analyzer.present.report.common import json_text, percent, table

if TYPE_CHECKING:
    from analyzer.verify.partial import Issue
    from analyzer.verify.verdict import Verdict

__all__ = ["render_junit", "render_verdict", "verdict_json"]


def _p_text(p: float) -> str:
    return f"{p:.3g}" if p >= 1e-4 else f"{p:.2e}"


def verdict_json(verdict: Verdict) -> dict[str, Any]:
    """The JSON document of ``nine verify --format json`` (a ``Verdict``)."""

    def issue(item: Issue) -> dict[str, Any]:
        return {"file": item.source, "line": item.line, "shoe": item.shoe, "hand": item.hand,
                "kind": item.kind, "message": item.message}

    return {
        "status": verdict.status,
        "exit_code": verdict.exit_code,
        "profile": verdict.profile,
        "decks": verdict.decks,
        "decks_from": verdict.partial.decks_from or None,
        "model": verdict.model,
        "alpha": verdict.alpha,
        "detect": verdict.detect,
        "files": list(verdict.sources),
        "hands": verdict.hands,
        "shoes": verdict.shoes,
        "whole_shoes": verdict.whole_shoes,
        "cut_shoes": verdict.cut_shoes,
        "shoe_aware_hands": verdict.shoe_aware_hands,
        "malformed": {"count": verdict.malformed_count,
                      "listed": [issue(i) for i in verdict.malformed]},
        "violations": {"count": verdict.violation_count,
                       "by_kind": dict(verdict.violation_kinds),
                       "listed": [issue(i) for i in verdict.violations]},
        "tests": [{"name": t.name, "bet": t.bet, "method": t.method, "statistic": t.statistic,
                   "df": t.df, "p_value": t.p_value, "holm_adjusted_p": t.adjusted,
                   "passed": t.passed, **({"note": t.note} if t.note else {})}
                  for t in verdict.tests],
        "bets": [{"id": b.id, "name": b.name, "hands": b.hands, "basis": b.basis,
                  "rtp": b.rtp, "expected_rtp": b.expected_rtp, "z": b.z,
                  "confidence_interval": [b.ci_low, b.ci_high],
                  "detectable_rtp_error": b.detectable_error, "hands_needed": b.hands_needed,
                  "underpowered": b.underpowered,
                  "results": [{"result": name, "observed": n,
                               "expected": None if e != e else e}  # NaN: not modelled
                              for name, n, e in b.lines]}
                 for b in verdict.bets],
        "underpowered": verdict.underpowered,
        "not_checked": [{"what": n.what, "why": n.why} for n in verdict.not_checked],
        "required": list(verdict.require) + (["power"] if verdict.require_power
                                             and "power" not in verdict.require else []),
        "required_not_checked": [n.what for n in verdict.missing_required],
        "columns": {"used": dict(_columns(verdict)[0]), "ignored": list(_columns(verdict)[1])},
        "unsupported": list(verdict.unsupported),
        "outcomes_only": verdict.partial.outcomes_only,
        "notes": list(verdict.notes),
    }


def _columns(verdict: Verdict) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """The (header, meaning) pairs used and the headers ignored."""
    return verdict.partial.columns_used, verdict.partial.columns_ignored


def _not_checked_lines(verdict: Verdict) -> list[str]:
    """``PASS - payouts NOT checked: why``, one line per check not run, and the columns."""
    word = verdict.status.upper()
    lines = []
    for n in verdict.not_checked:
        required = " (required: exit 4)" if n in verdict.missing_required else ""
        lines.append(f"{word} - {n.what} NOT checked: {n.why}{required}")
    used, ignored = _columns(verdict)
    if used or ignored:
        lines.append("Columns used: " + (", ".join(f"{h} -> {m}" for h, m in used)
                                         if used else "none"))
        lines.append("Columns ignored: " + (", ".join(ignored) if ignored else "none"))
    return lines


def render_verdict(verdict: Verdict, fmt: str = "text") -> str:
    """Render the outcome of ``nine verify`` as text, markdown or JSON."""
    if fmt == "json":
        return json_text(verdict_json(verdict))
    if fmt not in ("text", "markdown"):
        raise AnalyzerError(f"nine verify renders text, markdown or json, not {fmt!r}")
    heading = (f"nine verify: {verdict.status.upper()} (exit {verdict.exit_code}) - "
               f"{verdict.profile}, {verdict.decks} decks, {verdict.model} model")
    parts = [f"## {heading}\n" if fmt == "markdown" else f"{heading}\n"]
    said = _not_checked_lines(verdict)
    if said:
        bullet = "- " if fmt == "markdown" else ""
        parts[0] += "".join(f"{bullet}{line}\n" for line in said)
    parts.append(f"{verdict.hands:,} hands in {verdict.shoes:,} shoes "
                 f"({verdict.whole_shoes:,} whole"
                 f"{f', {verdict.cut_shoes:,} cut short' if verdict.cut_shoes else ''}) "
                 f"from {len(verdict.sources)} file(s); "
                 f"alpha {verdict.alpha:g} (Holm across {len(verdict.tests)} tests); "
                 f"detect target {verdict.detect:g} RTP.\n")
    for label, count, items in (("Malformed records", verdict.malformed_count,
                                 verdict.malformed),
                                ("Rule and payout violations", verdict.violation_count,
                                 verdict.violations)):
        if not count:
            parts.append(f"{label}: none.\n")
            continue
        shown = f" (first {len(items)} listed)" if len(items) < count else ""
        parts.append(f"{label}: {count:,}{shown}.\n")
        rows = [[i.where(), i.kind, i.message] for i in items]
        parts.append(table(rows, ["where", "kind", "problem"], fmt) + "\n")
    if verdict.violation_kinds:
        parts.append("Violations by kind: " + ", ".join(
            f"{k} {n:,}" for k, n in verdict.violation_kinds) + "\n")
    if verdict.tests:
        whole = "winners" if verdict.partial.outcomes_only else "cards"
        rows = [[t.bet or whole, t.name, t.method, f"{t.statistic:.4g}",
                 "" if t.df is None else str(t.df), _p_text(t.p_value), _p_text(t.adjusted),
                 "pass" if t.passed else "FAIL"] for t in verdict.tests]
        parts.append(table(rows, ["bet", "test", "method", "statistic", "df", "p",
                                  "Holm p", "verdict"], fmt) + "\n")
    if verdict.bets:
        rows = [[b.name, f"{b.hands:,}", b.basis, percent(b.rtp, 3), percent(b.expected_rtp, 3),
                 f"{b.z:+.2f}", f"{percent(b.ci_low, 3)} .. {percent(b.ci_high, 3)}",
                 percent(b.detectable_error, 3), f"{b.hands_needed:,}",
                 "UNDERPOWERED" if b.underpowered else "ok"] for b in verdict.bets]
        parts.append(table(rows, ["bet", "hands", "RTP from", "RTP", "exact RTP", "z",
                                  f"{(1 - verdict.alpha) * 100:g}% CI", "detectable error",
                                  "hands needed", "power"], fmt) + "\n")
    for item in verdict.unsupported:
        parts.append(f"Not checked (input cannot support it): {item}\n")
    for note in verdict.notes:
        parts.append(f"Note: {note}\n")
    return "\n".join(parts)


def render_junit(verdict: Verdict, seconds: float = 0.0, timestamp: str = "") -> str:
    """A JUnit XML report of ``nine verify``: one test case per check, for CI dashboards.

    Checks that could not run are ``<skipped>`` with the reason (a ``<failure>`` when
    required); every test case carries its count or p-value in ``system-out``; the suite
    carries ``time`` (``seconds``, the run's wall time) and ``timestamp`` (ISO 8601, the
    run's start).
    """
    # imported here: xml.sax.saxutils imports urllib.request and ssl (40 ms), which every
    # command would otherwise pay for through this package
    from xml.sax.saxutils import escape, quoteattr

    cases: list[str] = []

    def case(name: str, out: str, failure: str = "", skipped: str = "") -> None:
        body = ""
        if failure:
            body = f"<failure message={quoteattr(failure)}/>"
        elif skipped:
            body = f"<skipped message={quoteattr(skipped)}/>"
        cases.append(f'    <testcase classname="nine.verify" name={quoteattr(name)} '
                     f'time="0">{body}<system-out>{escape(out)}</system-out></testcase>')

    case("input", f"{verdict.hands} hands, {verdict.shoes} shoes "
                  f"({verdict.whole_shoes} whole), {verdict.malformed_count} malformed "
                  "record(s)",
         f"{verdict.malformed_count} malformed record(s); first: "
         f"{verdict.malformed[0].where()} {verdict.malformed[0].message}"
         if verdict.malformed else ("no hands" if verdict.hands == 0 else ""))
    used, ignored = _columns(verdict)
    if used or ignored:
        case("columns", "used: " + "; ".join(f"{h} -> {m}" for h, m in used)
             + "\nignored: " + ("; ".join(ignored) if ignored else "none"))
    case("replay", f"{verdict.violation_count} violation(s)",
         f"{verdict.violation_count} violation(s); first: "
         f"{verdict.violations[0].where()} {verdict.violations[0].message}"
         if verdict.violations else "")
    for n in verdict.not_checked:
        reason = f"{n.what} NOT checked: {n.why}"
        if n in verdict.missing_required:
            case(f"not checked: {n.what}", reason, f"required: {reason}")
        else:
            case(f"not checked: {n.what}", reason, skipped=reason)
    for t in verdict.tests:
        case(f"{t.bet or 'cards'}: {t.name}",
             f"{t.method}: statistic {t.statistic:.6g}, p {t.p_value:.6g}, Holm p "
             f"{t.adjusted:.6g}",
             "" if t.passed else f"{t.method}: statistic {t.statistic:.4g}, p {t.p_value:.3g}, "
                                 f"Holm p {t.adjusted:.3g} < alpha {verdict.alpha:g}")
    for b in verdict.bets:
        message = (f"detectable RTP error {b.detectable_error:.4%} > target "
                   f"{verdict.detect:.4%}; needs {b.hands_needed:,} hands")
        out = (f"{b.hands} hands; RTP {b.rtp:.6f} (exact {b.expected_rtp:.6f}); detectable "
               f"error {b.detectable_error:.4%}; hands needed {b.hands_needed}")
        if b.underpowered and verdict.power_required:
            case(f"{b.id}: power", out, message)
        else:
            case(f"{b.id}: power", out, skipped=message if b.underpowered else "")
    failures = sum("<failure" in c for c in cases)
    skipped = sum("<skipped" in c for c in cases)
    stamp = f' timestamp="{escape(timestamp)}"' if timestamp else ""
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<testsuite name="nine verify" tests="{len(cases)}" failures="{failures}" '
            f'skipped="{skipped}" errors="0" time="{seconds:.3f}"{stamp}>\n'
            + "\n".join(cases) + "\n</testsuite>\n")
