"""A small typed schema check for the JSON documents verify reads whole: aggregated counts
(:mod:`analyzer.dealing.counts`) and saved partial results (:mod:`analyzer.verify.partial`).

Each check names the field by its path (``bets[2].results[0]``) and refuses the wrong type
(a boolean is not an integer, a string is not a number), a negative count, a non-finite
number, a string or list longer than its bound, and unknown fields. The documents were
parsed by :func:`analyzer.inputs.parse_json`, which already bounds nesting and integer
size and refuses NaN and infinity.

>>> check_object({"hands": 3}, "f.json", {"hands": "count"})
{'hands': 3}
>>> check_object({"hands": -3}, "f.json", {"hands": "count"})
Traceback (most recent call last):
...
analyzer.errors.AnalyzerError: f.json: hands: must be a whole number from 0, got -3
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from analyzer.errors import AnalyzerError

__all__ = ["check_bool", "check_count", "check_int", "check_list", "check_number",
           "check_object", "check_string", "MAX_ITEMS", "MAX_TEXT"]

#: Longest string field (characters) and longest list (items) a document may hold.
MAX_TEXT = 10_000
MAX_ITEMS = 1_000_000


def _fail(where: str, path: str, message: str) -> AnalyzerError:
    return AnalyzerError(f"{where}: {path}: {message}")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:36]}..."


def check_int(value: Any, where: str, path: str, low: int | None = None,
              high: int | None = None) -> int:
    """An integer (not a boolean) in ``[low, high]``."""
    if isinstance(value, bool) or not isinstance(value, int) or (
            low is not None and value < low) or (high is not None and value > high):
        bounds = (f" from {low}" if low is not None else "") + (
            f" to {high:,}" if high is not None else "")
        raise _fail(where, path, f"must be a whole number{bounds}, got {_shown(value)}")
    return value


def check_count(value: Any, where: str, path: str) -> int:
    """A count: an integer from 0."""
    return check_int(value, where, path, 0)


def check_number(value: Any, where: str, path: str, low: float | None = None) -> float:
    """A finite number (an integer or a float, not a boolean), at least ``low``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(
            value) or (low is not None and value < low):
        floor = f" from {low}" if low is not None else ""
        raise _fail(where, path, f"must be a finite number{floor}, got {_shown(value)}")
    return float(value)


def check_bool(value: Any, where: str, path: str) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise _fail(where, path, f"must be true or false, got {_shown(value)}")
    return value


def check_string(value: Any, where: str, path: str, limit: int = MAX_TEXT,
                 choices: tuple[str, ...] = ()) -> str:
    """A string of at most ``limit`` characters (one of ``choices`` if given)."""
    if not isinstance(value, str) or len(value) > limit:
        raise _fail(where, path, f"must be a string of at most {limit:,} characters, got "
                                 f"{_shown(value)}")
    if choices and value not in choices:
        raise _fail(where, path, f"must be one of {', '.join(choices)}, got {_shown(value)}")
    return value


def check_list(value: Any, where: str, path: str, item: Callable[[Any, str, str], Any],
               lengths: tuple[int, ...] = (), limit: int = MAX_ITEMS) -> tuple[Any, ...]:
    """A list whose items pass ``item`` (called with the item's path), of one of
    ``lengths`` items if given."""
    if not isinstance(value, list) or len(value) > limit:
        raise _fail(where, path, f"must be a list of at most {limit:,} items, got "
                                 f"{_shown(value)}")
    if lengths and len(value) not in lengths:
        raise _fail(where, path, f"must hold {' or '.join(map(str, lengths))} items, not "
                                 f"{len(value)}")
    return tuple(item(x, where, f"{path}[{i}]") for i, x in enumerate(value))


_KINDS: dict[str, Callable[[Any, str, str], Any]] = {
    "count": check_count, "int": check_int, "number": check_number, "bool": check_bool,
    "string": check_string,
}


def check_object(value: Any, where: str, fields: Mapping[str, str | Callable[[Any, str, str],
                                                                           Any]],
                 required: tuple[str, ...] | None = None, path: str = "") -> dict[str, Any]:
    """An object with only the named ``fields`` (each a kind name, or a check called with
    the value, ``where`` and its path); ``required`` (default: every field) must be there.
    Returns the checked values."""
    label = path or "the document"
    if not isinstance(value, dict):
        raise _fail(where, label, f"must be an object, got {_shown(value)}")
    unknown = sorted(set(value) - set(fields))
    if unknown:
        raise _fail(where, f"{path + '.' if path else ''}{unknown[0]}"[:200], "unknown field")
    needed = tuple(fields) if required is None else required
    missing = [key for key in needed if key not in value]
    if missing:
        raise _fail(where, label, f"missing field {missing[0]!r}")
    checked = {}
    for key, raw in value.items():
        kind = fields[key]
        check = _KINDS[kind] if isinstance(kind, str) else kind
        checked[key] = check(raw, where, f"{path + '.' if path else ''}{key}")
    return checked
