#!/usr/bin/env python3
"""Audit PGN or Parquet files with Ray, in size-balanced parts.

    python examples/ray_audit.py PATH... --out DIR [--address ADDRESS | --cpus N] [--parts N]

PATH: files (``.pgn``, ``.pgn.zst``, ``.parquet``) or directories of them,
at the same path on every node (a shared or copied disk: a part is a byte,
frame or row-group range of a file). ``pgn_arbiter.plan`` cuts them into
about ``--parts`` parts; each Ray task audits one part
(``pgn_arbiter.audit_part``, one thread); the driver merges the parts'
outputs with ``pgn_arbiter.merge_parts`` into ``DIR/findings.parquet`` and
``DIR/summary.json``: the findings and counts of one ``pgn-arbiter audit
--jsonl --summary-json`` run over the same files (game numbers, offsets and
lines of each whole file; the summary but for ``seconds`` and ``threads``).
Without ``--address``, Ray starts on this machine.
"""

from __future__ import annotations

import argparse
import sys
import time

import merged_output


def audit_with_ray(paths, parts):
    """One Ray task per part; the parts merged as one run's (findings, summary)."""
    import pgn_arbiter
    import ray

    part = ray.remote(lambda spec: pgn_arbiter.audit_part(spec, threads=1))
    specs = pgn_arbiter.plan(paths, parts)
    return pgn_arbiter.merge_parts(ray.get([part.remote(s) for s in specs]))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--address", help="address of a running Ray cluster")
    parser.add_argument("--cpus", type=int, help="CPUs of the Ray started here (default: all)")
    parser.add_argument("--parts", type=int, default=64, help="about how many parts")
    args = parser.parse_args(argv)

    import ray

    started = time.perf_counter()
    ray.init(address=args.address, num_cpus=None if args.address else args.cpus)
    tasks = time.perf_counter()
    try:
        findings, summary = audit_with_ray(args.paths, args.parts)
        tasks = time.perf_counter() - tasks
    finally:
        ray.shutdown()
    return merged_output.write(args.out, findings, summary, started, tasks)


if __name__ == "__main__":
    sys.exit(main())
