#!/usr/bin/env python3
"""Audit many PGN files on a Dask cluster, one task per file.

    python examples/dask_audit.py PATH... --out DIR [--scheduler ADDRESS]
                                  [--workers N] [--dead MODE] [--laws LAWS]

PATH: files (``.pgn``, ``.pgn.zst``) or directories of them. Each task runs
``pgn_arbiter.audit`` on one file (one thread per task: Dask spreads the
tasks over the workers) and writes that file's findings as one Parquet
partition, ``DIR/findings/part-NNNNN.parquet``; the driver merges the
tasks' summaries, in the order of the files, into ``DIR/summary.json``.
Together they equal one ``pgn-arbiter audit --jsonl --summary-json`` run
over the same files (the same findings, in another layout; the same counts,
but for ``seconds`` and ``threads``).

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


def inputs(paths):
    """The files to audit, in order: directories walked for *.pgn and
    *.pgn.zst (any case), as the CLI does."""
    out = []
    for p in map(Path, paths):
        if p.is_dir():
            found = [
                f
                for f in p.rglob("*")
                if f.is_file() and f.name.lower().endswith((".pgn", ".pgn.zst"))
            ]
            out.extend(sorted(found))
        else:
            out.append(p)
    return [str(p) for p in out]


def audit_one(index, path, out_dir, dead, laws):
    """One task: the findings of one file as a Parquet partition, and its
    summary (a dict, merged by the driver)."""
    import pyarrow.parquet as pq

    import pgn_arbiter

    table, summary = pgn_arbiter.audit([path], dead=dead, laws=laws, threads=1, errors="summary")
    part = Path(out_dir) / "findings" / f"part-{index:05d}.parquet"
    pq.write_table(table, part, compression="zstd")
    return summary


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--dead", default="quick", choices=["material", "quick", "thorough"])
    parser.add_argument("--laws", default="auto", choices=["auto", "2001", "2014", "2018"])
    args = parser.parse_args(argv)

    from distributed import Client, LocalCluster

    import pgn_arbiter

    files = inputs(args.paths)
    if not files:
        print(f"dask_audit: no .pgn or .pgn.zst file in {args.paths}", file=sys.stderr)
        return 2
    out = Path(args.out)
    (out / "findings").mkdir(parents=True, exist_ok=True)

    started = time.perf_counter()
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True)
        client = Client(cluster)
    try:
        futures = [
            client.submit(audit_one, i, f, str(out), args.dead, args.laws, pure=False)
            for i, f in enumerate(files)
        ]
        summaries = client.gather(futures)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    summary = pgn_arbiter.merge_summaries(summaries)
    summary["seconds"] = time.perf_counter() - started
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    total = summary["total"]
    print(
        f"{total['games_read']:,} games in {len(files)} files, "
        f"{sum(k['games'] for k in total['kinds']):,} findings by kind, "
        f"{summary['seconds']:.1f} s: {out}/findings/, {out}/summary.json"
    )
    return 2 if summary["input_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
