"""examples/spark_audit.py on a local Spark (``local[2]``) and
examples/ray_audit.py on a local Ray (2 CPUs), over the shared Lichess file
as Parquet in the layout of the Hugging Face dataset (row groups of 1,000
games) and over parts of the same games as plain PGN: the merged findings
equal one CLI run's (the same rows in the same order, game numbers, offsets
and lines of the whole file) and the merged summary the CLI's (but for
seconds and threads). docs/CLUSTER.md shows the examples' functions verbatim."""

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pgn_arbiter
from test_audit import ROOT, cli, without_run_fields
from test_dask import SHARED, canonical, need


@pytest.fixture(scope="module")
def lichess(tmp_path_factory):
    """The shared Lichess file as Hugging Face-style Parquet, and its games
    as plain PGN (written beside it by tests/hf_parquet.py)."""
    source = SHARED / "data" / "online-lichess.pgn.zst"
    if not source.exists():
        need(False, f"the shared Lichess file {source}")
    need(shutil.which("zstd"), "zstd (apt-get install zstd)")
    tmp = tmp_path_factory.mktemp("lichess")
    plain = tmp / "source.pgn"
    plain.write_bytes(subprocess.run(["zstd", "-dc", str(source)], capture_output=True, check=True).stdout)
    parquet = tmp / "lichess.parquet"
    subprocess.run([sys.executable, str(ROOT / "tests" / "hf_parquet.py"), str(plain), str(parquet)],
                   check=True, capture_output=True)
    return {"parquet": parquet, "pgn": Path(str(parquet) + ".pgn")}


def run_example(script, path, extra, tmp_path):
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), str(path), "--out", str(out), "--parts", "7", *extra],
        capture_output=True, text=True, timeout=1200,
        env={**os.environ, "PYSPARK_PYTHON": sys.executable},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    import pyarrow.parquet as pq

    return pq.read_table(out / "findings.parquet"), json.loads((out / "summary.json").read_text())


def assert_equals_one_cli_run(path, findings, summary, tmp_path):
    # more than one part: the merge has game numbers to make global
    assert len(pgn_arbiter.plan([path], 7)) > 1
    summary_path = tmp_path / "cli-summary.json"
    lines = cli("audit", "--quiet", "--jsonl", "-", "--summary-json", summary_path, path)
    expected = [canonical(json.loads(line)) for line in lines.splitlines()]
    assert len(expected) > 20
    assert [canonical(row) for row in findings.to_pylist()] == expected
    assert max(json.loads(e)["game"] for e in expected) > 1000
    assert without_run_fields(summary) == without_run_fields(json.loads(summary_path.read_text()))


def assert_shown_in_readme(script, function):
    """docs/CLUSTER.md's snippet is the example's function, verbatim."""
    source = (ROOT / "examples" / script).read_text()
    node = next(n for n in ast.parse(source).body if getattr(n, "name", None) == function)
    assert ast.get_source_segment(source, node) in (ROOT / "docs" / "CLUSTER.md").read_text()


def java_runs():
    java = shutil.which("java")
    return java is not None and subprocess.run([java, "-version"], capture_output=True).returncode == 0


@pytest.mark.parametrize("form", ["parquet", "pgn"])
def test_spark_run_over_parts_equals_one_cli_run(lichess, tmp_path, form):
    try:
        import pyspark  # noqa: F401
    except ImportError:
        need(False, "pyspark (pip install pyspark)")
    need(java_runs(), "java for Spark (apt-get install openjdk-17-jre-headless)")
    assert_shown_in_readme("spark_audit.py", "audit_with_spark")
    findings, summary = run_example("spark_audit.py", lichess[form], ["--master", "local[2]"], tmp_path)
    assert_equals_one_cli_run(lichess[form], findings, summary, tmp_path)


@pytest.mark.parametrize("form", ["parquet", "pgn"])
def test_ray_run_over_parts_equals_one_cli_run(lichess, tmp_path, form):
    try:
        import ray  # noqa: F401
    except ImportError:
        need(False, "ray (pip install ray)")
    assert_shown_in_readme("ray_audit.py", "audit_with_ray")
    findings, summary = run_example("ray_audit.py", lichess[form], ["--cpus", "2"], tmp_path)
    assert_equals_one_cli_run(lichess[form], findings, summary, tmp_path)
