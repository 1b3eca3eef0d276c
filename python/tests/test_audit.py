"""pgn_arbiter from Python: the same findings and counts as the CLI.

The CLI binary is the reference (``PGN_ARBITER_BIN``, default
``target/release/pgn-arbiter`` at the repository's root, built by
``cargo build --release``).
"""

import json
import os
import re
import subprocess
import threading
import time
from pathlib import Path

import pyarrow as pa
import pytest

import pgn_arbiter

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
SAMPLES = [DATA / "lichess-2000.pgn", DATA / "twic-2000.pgn.zst"]
BIN = Path(os.environ.get("PGN_ARBITER_BIN", ROOT / "target" / "release" / "pgn-arbiter"))
# Fields that depend on the run, not on the games.
RUN_FIELDS = ("seconds", "threads")


def cli(*args):
    if not BIN.exists():
        pytest.fail(f"{BIN} not found: run `cargo build --release` first (or set PGN_ARBITER_BIN)")
    out = subprocess.run([str(BIN), *map(str, args)], capture_output=True, check=True)
    return out.stdout.decode()


def cli_run(paths, *extra, tmp):
    summary = tmp / "summary.json"
    text = cli("audit", "--quiet", "--jsonl", "-", "--summary-json", summary, *extra, *paths)
    lines = [json.loads(line) for line in text.splitlines()]
    return lines, json.loads(summary.read_text())


def without_run_fields(summary):
    return {k: v for k, v in summary.items() if k not in RUN_FIELDS}


def assert_rows_equal_lines(table: pa.Table, lines):
    # The JSONL's `site` is the column `rule_site` (beside the `Site` tag's).
    rows = [{("site" if k == "rule_site" else k): v for k, v in r.items()} for r in table.to_pylist()]
    assert len(rows) == len(lines)
    for i, (row, line) in enumerate(zip(rows, lines)):
        for field, value in line.items():
            assert field in row, f"line {i}: column {field} missing"
            assert row[field] == value, f"line {i}: {field}: {row[field]!r} != {value!r}"
        for field, value in row.items():
            if field not in line:
                assert value is None, f"line {i}: {field} is {value!r}, the JSONL has no such field"


def test_audit_equals_the_cli_line_by_line(tmp_path):
    table, summary = pgn_arbiter.audit(SAMPLES)
    lines, cli_summary = cli_run(SAMPLES, tmp=tmp_path)
    assert len(lines) > 50
    assert_rows_equal_lines(table, lines)
    assert without_run_fields(summary) == without_run_fields(cli_summary)
    assert summary["total"]["accounted"]


@pytest.mark.parametrize("dead", ["material", "thorough"])
def test_options_reach_the_engine(tmp_path, dead):
    table, summary = pgn_arbiter.audit(SAMPLES, dead=dead, laws="2018", threads=1, tags="all")
    lines, cli_summary = cli_run(SAMPLES, "--dead", dead, "--laws", "2018", "--threads", "1",
                                 "--tags", "all", tmp=tmp_path)
    # With every tag kept, the JSONL inlines them and the table has a map
    # column: compare the findings' own fields, then the tags.
    rows = table.to_pylist()
    assert len(rows) == len(lines)
    for row, line in zip(rows, lines):
        for field in ("file", "game", "kind", "ply", "side", "fen", "edition", "proof"):
            assert row[field] == line.get(field)
        # The base tags have columns of their own; the map holds the rest.
        tags = dict(row["tags"] or [])
        for name in ("White", "Black", "Event", "PlyCount", "TimeControl"):
            value = row[name] if name in row else tags.get(name)
            assert value == line.get(name), name
    assert without_run_fields(summary) == without_run_fields(cli_summary)


def test_a_path_that_cannot_be_read_raises_naming_it_or_is_counted(tmp_path):
    missing = tmp_path / "no-such.pgn"
    with pytest.raises(OSError, match="no-such.pgn"):
        pgn_arbiter.audit([SAMPLES[0], missing])
    table, summary = pgn_arbiter.audit([SAMPLES[0], missing], errors="summary")
    assert summary["input_errors"] == 1
    assert [i["file"] for i in summary["inputs"]][-1].endswith("no-such.pgn")
    assert table.num_rows > 0


def test_merged_summaries_equal_one_run():
    parts = [pgn_arbiter.audit([p])[1] for p in SAMPLES]
    whole = pgn_arbiter.audit(SAMPLES)[1]
    assert without_run_fields(pgn_arbiter.merge_summaries(parts)) == without_run_fields(whole)


def test_the_gil_is_released_while_rust_works():
    done = threading.Event()

    def work():
        for _ in range(3):
            pgn_arbiter.audit(SAMPLES, dead="thorough", threads=1)
        done.set()

    worker = threading.Thread(target=work)
    started = time.perf_counter()
    worker.start()
    spins = 0
    while not done.is_set():
        spins += 1
    worker.join()
    elapsed = time.perf_counter() - started
    # Holding the GIL, the audit would leave this loop a handful of turns.
    assert elapsed > 0.05
    assert spins > 10_000, f"{spins} turns of the main thread in {elapsed:.2f} s"


def pgn_rows(path: Path):
    """The games of a plain PGN file as (tags, movetext), split the way the
    Lichess exports are laid out (tags, blank line, movetext, blank line)."""
    text = path.read_text(encoding="utf-8")
    games = []
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        head, _, moves = block.partition("\n\n")
        tags = dict(re.findall(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]\s*$', head, flags=re.M))
        games.append((tags, " ".join(moves.split())))
    return games


# The tag columns of the Lichess dataset on Hugging Face (no `Date`: the
# laws edition must follow `UTCDate`).
HF_TAGS = ["Event", "Site", "White", "Black", "Result", "WhiteTitle", "BlackTitle",
           "WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff", "UTCDate",
           "UTCTime", "ECO", "Opening", "Termination", "TimeControl"]


def test_arrow_rows_give_the_findings_of_the_same_games_as_pgn(tmp_path):
    games = pgn_rows(SAMPLES[0])
    assert len(games) == 2000
    movetext = pa.array([m for _, m in games], type=pa.large_string())
    # This 2016 export writes the day played as `Date`; the dataset has it
    # as `UTCDate` only.
    for t, _ in games:
        t.setdefault("UTCDate", t.get("Date"))
    tags = {name: pa.array([t.get(name) for t, _ in games], type=pa.string()) for name in HF_TAGS}
    table, summary = pgn_arbiter.audit_arrow(movetext, tags, name="hf")
    lines, _ = cli_run([SAMPLES[0]], tmp=tmp_path)
    rows = table.to_pylist()
    assert len(rows) == len(lines) > 0
    for row, line in zip(rows, lines):
        assert row["file"] == "hf"
        # One game per row: `game` is the row's index, as in the file.
        for field in ("game", "kind", "ply", "move_number", "side", "san", "fen", "occurrences",
                      "outcome", "via", "edition", "White", "Black", "Result"):
            assert row[field] == line.get(field), field
    assert summary["total"]["games_read"] == 2000
    assert summary["total"]["accounted"]


def without_run_times(aggregate):
    runs = [{k: v for k, v in r.items() if k not in RUN_FIELDS} for r in aggregate["run"]]
    return {**aggregate, "run": runs}


def test_report_aggregates_equal_the_cli_and_merge_as_pgn_arbiter_report(tmp_path):
    whole = pgn_arbiter.report(SAMPLES)
    agg = tmp_path / "agg.json"
    cli("audit", "--quiet", "--report-json", agg, *SAMPLES)
    # the file keeps the games for merging beside it; read back, they are inline
    assert json.loads(agg.read_text())["duplicates"]["ids_beside"] is True
    assert without_run_times(whole) == without_run_times(pgn_arbiter.read_report(agg))
    parts = [pgn_arbiter.report([p]) for p in SAMPLES]
    merged = pgn_arbiter.merge_reports(parts)
    # The CLI's merge of the same parts.
    files = []
    for i, part in enumerate(parts):
        f = tmp_path / f"part{i}.json"
        f.write_text(json.dumps(part))
        files.append(f)
    assert without_run_times(merged) == without_run_times(json.loads(cli("report", "--json", "-", *files)))
    assert merged["games"] == whole["games"]


def test_report_duplicates_once_or_all_as_the_cli(tmp_path):
    """The same file given twice: every game is a repeat. ``once`` counts
    each game once, ``all`` twice, both as the CLI's ``--duplicates``."""
    twice = [SAMPLES[0], SAMPLES[0]]
    for mode in ("once", "all"):
        got = pgn_arbiter.report(twice, duplicates=mode)
        agg = tmp_path / f"agg-{mode}.json"
        cli("audit", "--quiet", "--duplicates", mode, "--report-json", agg, *twice)
        assert without_run_times(got) == without_run_times(pgn_arbiter.read_report(agg))
        assert got["duplicates"]["mode"] == mode
    once = pgn_arbiter.report(twice, duplicates="once")
    alone = pgn_arbiter.report([SAMPLES[0]])
    everyone = pgn_arbiter.report(twice, duplicates="all")
    # games read count the input; plies, flagged games and kinds each game once
    assert once["games"]["read"] == everyone["games"]["read"] == 2 * alone["games"]["read"]
    assert once["games"]["plies"] == alone["games"]["plies"]
    assert once["kinds"] == alone["kinds"]
    assert once["duplicates"]["left_out"] == alone["games"]["read"]
    assert everyone["games"]["plies"] == 2 * alone["games"]["plies"]
    assert everyone["duplicates"]["left_out"] == 0
    with pytest.raises(ValueError, match="duplicates"):
        pgn_arbiter.report(twice, duplicates="some")
    # a part of a plan counts repeats the same way
    doubled = tmp_path / "doubled.pgn"
    doubled.write_bytes(SAMPLES[0].read_bytes() * 2)
    (spec,) = pgn_arbiter.plan(doubled, 1)
    for mode, left_out in (("once", alone["games"]["read"]), ("all", 0)):
        _, _, agg = pgn_arbiter.audit_part(spec, report=True, duplicates=mode)
        assert agg["duplicates"]["mode"] == mode
        assert agg["duplicates"]["left_out"] == left_out


def test_arrow_columns_of_any_type_are_read_as_the_cli_reads_parquet(tmp_path):
    """The Hugging Face layout with its types (integer ratings, a date, a
    time): audit_arrow on the table equals the CLI on the Parquet file, to
    the offsets and ids (both write the rows as the same PGN)."""
    import sys
    import pyarrow.parquet as pq

    path = tmp_path / "games.parquet"
    subprocess.run([sys.executable, str(ROOT / "tests" / "hf_parquet.py"), str(SAMPLES[0]), str(path)],
                   check=True, capture_output=True)
    t = pq.read_table(path)
    assert pa.types.is_date32(t.schema.field("UTCDate").type)
    findings, summary = pgn_arbiter.audit_arrow(
        t["movetext"], {n: t[n] for n in t.column_names if n != "movetext"}, name=str(path))
    out = subprocess.run([str(BIN), "audit", "--quiet", "--jsonl", "-", str(path)], capture_output=True)
    if b"built without Parquet" in out.stderr:
        pytest.skip(f"SKIPPED: {BIN} was built without the parquet feature")
    lines = [json.loads(line) for line in out.stdout.decode().splitlines()]
    assert len(lines) > 0
    assert_rows_equal_lines(findings, lines)
    assert summary["total"]["games_read"] == t.num_rows


FICS_MATERIAL = (
    '[Event "s"]\n[Site "FICS freechess.org"]\n[White "K"]\n[Black "L"]\n'
    '[Result "1/2-1/2"]\n\n1. e4 e5 {Neither player has mating material} 1/2-1/2\n\n'
)


def test_site_rules_cross_as_rule_site_and_rule(tmp_path):
    """A FICS material draw named with every man on the board: one
    ``site_rule`` row, its site in ``rule_site`` beside the ``Site`` tag;
    ``site="none"`` judges by the Laws only; a bad name is a ValueError."""
    path = tmp_path / "fics.pgn"
    path.write_text(FICS_MATERIAL)
    table, summary = pgn_arbiter.audit(path)
    rows = [r for r in table.to_pylist() if r["kind"] == "site_rule"]
    assert [(r["rule_site"], r["rule"], r["ply"], r["Site"]) for r in rows] == [
        ("fics", "ruling", 2, "FICS freechess.org")
    ]
    fics = [s for s in summary["total"]["sites"] if s["site"] == "fics"][0]
    assert (fics["games"], fics["rulings_checked"], fics["rulings_supported"]) == (1, 1, 0)
    table, _ = pgn_arbiter.audit(path, site="none")
    assert "site_rule" not in table.column("kind").to_pylist()
    with pytest.raises(ValueError, match="site="):
        pgn_arbiter.audit(path, site="icc")


# The columns of audit_arrow a newcomer gets wrong.

def test_an_all_null_tag_column_is_a_missing_tag():
    games = pgn_rows(SAMPLES[0])[:300]
    movetext = pa.array([m for _, m in games], type=pa.string())
    tags = {name: pa.array([t.get(name) for t, _ in games], type=pa.string())
            for name in ("White", "Black", "Result", "Date", "Site")}
    with_nulls = {**tags, "Termination": pa.nulls(len(games)), "ECO": pa.array([None] * len(games))}
    assert with_nulls["ECO"].type == pa.null()
    want, _ = pgn_arbiter.audit_arrow(movetext, tags, name="t")
    got, summary = pgn_arbiter.audit_arrow(movetext, with_nulls, name="t")
    assert summary["total"]["games_read"] == len(games)
    assert got.to_pylist() == want.to_pylist()


def test_an_integer_movetext_column_is_an_error_naming_it():
    with pytest.raises(ValueError, match=r"column movetext holds Int64: expected strings"):
        pgn_arbiter.audit_arrow(pa.array([1, 2, 3]), {"White": pa.array(["a", "b", "c"])})


def test_a_tag_column_of_another_type_is_an_error_naming_it():
    with pytest.raises(ValueError, match=r"column Moves holds List"):
        pgn_arbiter.audit_arrow(pa.array(["1. e4 *"]), {"Moves": pa.array([[1, 2]])})


def test_to_pandas_has_an_extra_that_installs_pandas():
    pyproject = Path(__file__).resolve().parents[1] / "pyproject.toml"
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    assert extras["pandas"] == ["pandas"]
    assert 'pip install "./python[pandas]"' in pgn_arbiter.__doc__
    try:
        import pandas  # noqa: F401
    except ImportError:
        pytest.skip("pandas not installed: pip install \"./python[pandas]\"")
    findings, _ = pgn_arbiter.audit(SAMPLES[0])
    assert len(findings.to_pandas()) == findings.num_rows
