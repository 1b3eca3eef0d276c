"""examples/dask_audit.py on a distributed.LocalCluster with 2 workers over
one file made of the shared corpus, plain and as pzstd: it plans parts of
the one file, and the merged findings equal one CLI run's (the same rows in
the same order, game numbers of the whole file) and its merged summary the
CLI's (but for seconds and threads)."""

import json
import os
import shutil
import subprocess
import sys
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


def corpus_file(tmp_path, compressed):
    """One file made of the whole shared corpus (296 MB), plain or as pzstd
    frames (as Lichess's dumps are written)."""
    files = sorted((SHARED / "data").glob("*.pgn.zst"))
    need(len(files) >= 2, f"the shared corpus in {SHARED}/data")
    plain = tmp_path / "corpus.pgn"
    with open(plain, "wb") as out:
        for f in files:
            out.write(subprocess.run(["zstd", "-dc", str(f)], capture_output=True, check=True).stdout)
            out.write(b"\n\n")
    if not compressed:
        return plain
    packed = tmp_path / "corpus.pgn.zst"
    subprocess.run(["pzstd", "-q", "-p", "2", str(plain), "-o", str(packed)], check=True)
    plain.unlink()
    return packed


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "pzstd"])
def test_dask_run_over_parts_equals_one_cli_run(tmp_path, compressed):
    try:
        import distributed  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        need(False, "dask[distributed] (pip install 'dask[distributed]')")
    if compressed:
        need(shutil.which("pzstd"), "pzstd (apt-get install zstd)")
    big = corpus_file(tmp_path, compressed)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "dask_audit.py"), str(big),
         "--out", str(out), "--workers", "2"],
        capture_output=True, text=True, timeout=1200,
    )
    assert done.returncode == 0, done.stderr
    # one file, spread over both workers
    assert ", 8 parts," in done.stdout or compressed, done.stdout
    summary_path = tmp_path / "cli-summary.json"
    lines = cli("audit", "--quiet", "--jsonl", "-", "--summary-json", summary_path, big)
    expected = [canonical(json.loads(line)) for line in lines.splitlines()]
    got = [canonical(row) for row in pq.read_table(out / "findings.parquet").to_pylist()]
    assert len(expected) > 20_000
    # the same findings in the same order: game, offset and line of the whole file
    assert got == expected
    summary = json.loads((out / "summary.json").read_text())
    cli_summary = json.loads(summary_path.read_text())
    assert without_run_fields(summary) == without_run_fields(cli_summary)
