"""examples/dask_audit.py on a distributed.LocalCluster with 2 workers over
the shared corpus: its findings equal one CLI run's (the same rows, in any
order) and its merged summary the CLI's (but for seconds and threads)."""

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from test_audit import BIN, ROOT, without_run_fields, cli

SHARED = Path(os.environ.get("PGN_ARBITER_SHARED", ROOT.parent / "shared"))


def need(condition, what):
    if condition:
        return
    if os.environ.get("PGN_ARBITER_REQUIRE_ALL"):
        pytest.fail(f"{what} is required (PGN_ARBITER_REQUIRE_ALL)")
    pytest.skip(f"SKIPPED: {what}")


def canonical(row: dict) -> str:
    # The JSONL's `site` is the column `rule_site` (beside the `Site` tag's).
    row = {("site" if k == "rule_site" else k): v for k, v in row.items()}
    return json.dumps({k: v for k, v in row.items() if v is not None}, sort_keys=True)


def test_dask_run_equals_one_cli_run(tmp_path):
    try:
        import distributed  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        need(False, "dask[distributed] (pip install 'dask[distributed]')")
    files = sorted((SHARED / "data").glob("*.pgn.zst"))
    need(len(files) >= 2, f"the shared corpus in {SHARED}/data")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "dask_audit.py"), *map(str, files),
         "--out", str(out), "--workers", "2"],
        capture_output=True, text=True, timeout=1200,
    )
    assert done.returncode == 0, done.stderr
    summary_path = tmp_path / "cli-summary.json"
    lines = cli("audit", "--quiet", "--jsonl", "-", "--summary-json", summary_path, *files)
    expected = Counter(canonical(json.loads(line)) for line in lines.splitlines())
    table = pq.read_table(out / "findings")
    got = Counter(canonical(row) for row in table.to_pylist())
    assert sum(expected.values()) > 20_000
    assert got == expected
    summary = json.loads((out / "summary.json").read_text())
    cli_summary = json.loads(summary_path.read_text())
    assert without_run_fields(summary) == without_run_fields(cli_summary)
