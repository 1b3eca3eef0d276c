#!/usr/bin/env python3
"""Audit PGN or Parquet files with Spark, in size-balanced parts.

    python examples/spark_audit.py PATH... --out DIR [--master URL] [--parts N]

PATH: files (``.pgn``, ``.pgn.zst``, ``.parquet``) or directories of them,
at the same path on every executor (a shared or copied disk: a part is a
byte, frame or row-group range of a file). ``pgn_arbiter.plan`` cuts them
into about ``--parts`` parts; each Spark task audits one part
(``pgn_arbiter.audit_part``, one thread); the driver merges the parts'
outputs with ``pgn_arbiter.merge_parts`` into ``DIR/findings.parquet`` and
``DIR/summary.json``: the findings and counts of one ``pgn-arbiter audit
--jsonl --summary-json`` run over the same files (game numbers, offsets and
lines of each whole file; the summary but for ``seconds`` and ``threads``).
"""

from __future__ import annotations

import argparse
import sys
import time

import merged_output


def audit_with_spark(spark, paths, parts):
    """One Spark task per part; the parts merged as one run's (findings, summary)."""
    import pgn_arbiter

    specs = pgn_arbiter.plan(paths, parts)
    outs = (spark.sparkContext.parallelize(specs, len(specs))
            .map(lambda spec: pgn_arbiter.audit_part(spec, threads=1))
            .collect())
    return pgn_arbiter.merge_parts(outs)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--out", required=True, help="output directory")
    parser.add_argument("--master", default="local[*]", help="Spark master URL")
    parser.add_argument("--parts", type=int, default=64, help="about how many parts")
    args = parser.parse_args(argv)

    from pyspark.sql import SparkSession

    started = time.perf_counter()
    spark = (SparkSession.builder.master(args.master).appName("pgn-arbiter")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    tasks = time.perf_counter()
    try:
        findings, summary = audit_with_spark(spark, args.paths, args.parts)
        tasks = time.perf_counter() - tasks
    finally:
        spark.stop()
    return merged_output.write(args.out, findings, summary, started, tasks)


if __name__ == "__main__":
    sys.exit(main())
