"""Merging run summaries, by the rules the CLI's counts follow.

A run summary (``--summary-json``, or the ``dict`` :func:`pgn_arbiter.audit`
returns) holds counts that add up: the merge of the summaries of the parts
of an archive equals the summary of one run over the whole archive, but for
the wall-clock fields (``seconds`` adds up the parts' times, ``threads`` is
the largest) and the order of ``inputs`` (the parts' inputs, in the order
given).
"""

from __future__ import annotations

from typing import Iterable, List

_COUNTS = (
    "games_read",
    "analysed",
    "invalid",
    "skipped",
    "not_pgn",
    "plies",
    "bytes",
    "flagged",
    "open_comments",
    "hidden_games",
)


def _merge_stats(parts: List[dict]) -> dict:
    out = {key: sum(p.get(key, 0) for p in parts) for key in _COUNTS}
    out["accounted"] = out["games_read"] == out["analysed"] + out["invalid"] + out["skipped"]
    kinds: dict = {}
    for part in parts:
        for k in part.get("kinds", []):
            into = kinds.setdefault(k["kind"], {"kind": k["kind"]})
            for key, value in k.items():
                if key == "kind":
                    continue
                if isinstance(value, dict):
                    sub = into.setdefault(key, {})
                    for name, n in value.items():
                        sub[name] = sub.get(name, 0) + n
                else:
                    into[key] = into.get(key, 0) + value
    out["kinds"] = list(kinds.values())
    editions: dict = {}
    for part in parts:
        for name, n in part.get("editions", {}).items():
            editions[name] = editions.get(name, 0) + n
    out["editions"] = editions
    return out


def merge_summaries(summaries: Iterable[dict]) -> dict:
    """One summary for several runs (the parts of an archive, or the tasks
    of a Dask job): counts added, inputs concatenated in order."""
    summaries = list(summaries)
    if not summaries:
        raise ValueError("nothing to merge")
    laws = {s.get("laws") for s in summaries}
    if len(laws) > 1:
        raise ValueError(f"summaries judged by different laws: {sorted(map(str, laws))}")
    first = summaries[0]
    return {
        "tool": first.get("tool", "pgn-arbiter"),
        "version": first.get("version"),
        "laws": first.get("laws"),
        "threads": max(s.get("threads", 0) for s in summaries),
        "seconds": sum(s.get("seconds", 0.0) for s in summaries),
        "inputs": [i for s in summaries for i in s.get("inputs", [])],
        "total": _merge_stats([s["total"] for s in summaries]),
        "input_errors": sum(s.get("input_errors", 0) for s in summaries),
        "failed_conditions": [c for s in summaries for c in s.get("failed_conditions", [])],
        "interrupted": any(s.get("interrupted", False) for s in summaries),
    }
