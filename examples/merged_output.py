"""What examples/spark_audit.py and ray_audit.py write once the parts are
merged: ``DIR/findings.parquet``, ``DIR/summary.json`` and a line saying
how long the run took, the tasks apart from the cluster's start and stop."""

from __future__ import annotations

import json
import time
from pathlib import Path


def write(out, findings, summary, started, tasks):
    """Writes the merged run into the directory ``out``; the exit code (2
    when an input could not be read, as the CLI's)."""
    import pyarrow.parquet as pq

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    pq.write_table(findings, out / "findings.parquet", compression="zstd")
    summary["seconds"] = time.perf_counter() - started
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(f"{summary['total']['games_read']:,} games, {findings.num_rows:,} findings, "
          f"{summary['seconds']:.1f} s (the tasks {tasks:.1f} s, start and stop the rest): "
          f"{out}/findings.parquet, {out}/summary.json")
    return 2 if summary["input_errors"] else 0
