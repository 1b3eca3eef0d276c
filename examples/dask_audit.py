#!/usr/bin/env python3
"""Audit PGN files on a Dask cluster, in size-balanced parts.

    python examples/dask_audit.py PATH... --out DIR [--scheduler ADDRESS]
                                  [--workers N] [--parts N] [--dead MODE] [--laws LAWS]

PATH: files (``.pgn``, ``.pgn.zst``, ``.parquet``) or directories of them.
``pgn_arbiter.plan`` cuts them into about ``--parts`` parts of about equal
size (default: 4 per worker): a big file is spread over every worker
(plain PGN at game boundaries, pzstd files by frames, Parquet by row
groups). Each task runs ``pgn_arbiter.audit_part`` on one part (one thread
per task: Dask spreads the tasks over the workers); the driver merges the
parts with ``pgn_arbiter.merge_parts`` into ``DIR/findings.parquet`` and
``DIR/summary.json``: the findings and counts of one ``pgn-arbiter audit
--jsonl --summary-json`` run over the same files, game numbers, offsets and
lines counted from the start of each file (the summary but for
``seconds`` and ``threads``).

Without ``--scheduler`` a ``distributed.LocalCluster`` with ``--workers``
workers is started on this machine; with it, the tasks go to that
scheduler, whose workers must see the same paths and have ``pgn_arbiter``
installed (``pip install ./python``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


def audit_one(spec, dead, laws):
    """One task: the findings and summary of one part (merged by the
    driver)."""
    import pgn_arbiter

    return pgn_arbiter.audit_part(spec, dead=dead, laws=laws, threads=1)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--parts", type=int, help="about how many parts (default: 4 per worker)")
    parser.add_argument("--dead", default="quick", choices=["material", "quick", "thorough"])
    parser.add_argument("--laws", default="auto", choices=["auto", "2001", "2014", "2018"])
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    import pgn_arbiter

    import pyarrow.parquet as pq

    started = time.perf_counter()
    specs = pgn_arbiter.plan(args.paths, args.parts or 4 * max(args.workers, 1))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    try:
        started_tasks = time.perf_counter()
        futures = [client.submit(audit_one, s, args.dead, args.laws, pure=False) for s in specs]
        parts = client.gather(futures)
        tasks = time.perf_counter() - started_tasks
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    findings, summary = pgn_arbiter.merge_parts(parts)
    pq.write_table(findings, out / "findings.parquet", compression="zstd")
    summary["seconds"] = time.perf_counter() - started
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    total = summary["total"]
    print(
        f"{total['games_read']:,} games in {len(summary['inputs'])} files, {len(specs)} parts, "
        f"{findings.num_rows:,} findings, {summary['seconds']:.1f} s "
        f"(the tasks {tasks:.1f} s, the cluster's start the rest): "
        f"{out}/findings.parquet, {out}/summary.json"
    )
    return 2 if summary["input_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
