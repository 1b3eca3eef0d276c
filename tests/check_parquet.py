#!/usr/bin/env python3
"""Reads an `audit --parquet` file back as a data pipeline would and checks
it against the `--jsonl` of the same run:

    check_parquet.py FINDINGS.jsonl FINDINGS.parquet [--map]

* pyarrow: the columns are the JSONL's fields in its order, with their
  types (uint64 / uint32 for counts, strings else) and nullability, plus
  one string column per tag kept and, with --map (a run with `--tags all`),
  a `tags` map<string, string> column for the tags beyond those;
* row i equals line i field by field: the same values and types, the
  fields in the same order (but for `winner`, which the line writes before
  `proof`), a null exactly where the line has no field or writes null (a
  `tags` map entry standing for the line's field of that name);
* DuckDB: `SELECT kind, count(*) ... GROUP BY kind` gives the line counts
  per kind, and the file's row count is the number of lines.

Prints what it checked; exits 1 on any problem (the first ten are printed).
"""

import argparse
import collections
import json
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq

# The fields of a line (src/report/jsonl.rs), in order, as Arrow types;
# the tag columns stand between `rule` and `edition`. The line's `site`
# is the column `rule_site` (SQL engines fold it with the `Site` tag's).
HEAD = [
    ("file", pa.string(), False),
    ("game", pa.uint64(), False),
    ("game_id", pa.string(), True),
    ("content_id", pa.string(), True),
    ("offset", pa.uint64(), False),
    ("line", pa.uint64(), False),
    ("kind", pa.string(), False),
    ("article", pa.string(), False),
    ("ply", pa.uint32(), False),
    ("move_number", pa.uint32(), False),
    ("side", pa.string(), False),
    ("san", pa.string(), True),
    ("fen", pa.string(), False),
    ("occurrences", pa.uint32(), False),
    ("outcome", pa.string(), True),
    ("via", pa.string(), True),
    ("move", pa.string(), True),
    ("reason", pa.string(), True),
    ("proof", pa.string(), True),
    ("winner", pa.string(), True),
    ("mate", pa.string(), True),
    ("rule_site", pa.string(), True),
    ("rule", pa.string(), True),
]
TAIL = [("edition", pa.string(), False), ("schema_version", pa.uint32(), False)]
BASE_TAGS = ["White", "Black", "Date", "Result", "Site"]
MAP = pa.map_(pa.string(), pa.string())


def check_schema(schema, with_map, problems):
    """The columns, their types and nullability; returns the tag columns."""
    fields = list(schema)
    head, tail = fields[: len(HEAD)], fields[len(fields) - len(TAIL):]
    middle = fields[len(HEAD): len(fields) - len(TAIL)]
    for got, (name, typ, nullable) in zip(head + tail, HEAD + TAIL):
        if (got.name, got.type, got.nullable) != (name, typ, nullable):
            problems.append(f"column {got}: expected {name}: {typ}, nullable {nullable}")
    tags = [f.name for f in middle if f.name != "tags"]
    if tags[: len(BASE_TAGS)] != BASE_TAGS:
        problems.append(f"tag columns {tags}: expected {BASE_TAGS} first")
    for f in middle:
        expected = MAP if f.name == "tags" else pa.string()
        if not f.type.equals(expected) or (f.name != "tags" and not f.nullable):
            problems.append(f"tag column {f}: expected nullable {expected}")
    has_map = any(f.name == "tags" for f in middle)
    if has_map != with_map:
        problems.append(f"a tags map column: {has_map}, expected {with_map}")
    return tags


def as_line(row):
    """A row as the JSON object it stands for: nulls left out, the map's
    entries as fields in place."""
    out = {}
    for name, value in row.items():
        if name == "tags":
            for k, v in value:
                out[k] = v
        elif value is not None:
            out["site" if name == "rule_site" else name] = value
    return out


def line_order(line):
    """The line's fields in the columns' order: the JSONL writes the
    `winner` of an unwinnable flag before its `proof`, the columns follow
    the list of fields (`proof`, `winner`)."""
    keys = list(line)
    if "winner" in keys and "proof" in keys:
        w, p = keys.index("winner"), keys.index("proof")
        if w < p:
            keys[w], keys[p] = keys[p], keys[w]
    return keys


def check_rows(table, lines, problems):
    rows = table.to_pylist()
    if len(rows) != len(lines):
        problems.append(f"{len(rows)} rows, {len(lines)} lines")
    for i, (row, line) in enumerate(zip(rows, lines)):
        want = {k: v for k, v in line.items() if v is not None}
        got = as_line(row)
        if got != want:
            diff = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
            what = "; ".join(f"{k}: parquet {got.get(k)!r}, line {want.get(k)!r}" for k in diff)
            problems.append(f"row {i} ({line['file']} game {line['game']}): {what}")
        elif list(got) != line_order(want):
            problems.append(f"row {i}: fields in order {list(got)}, the line has {list(want)}")
        for k, v in want.items():
            if type(v) is not type(got.get(k)):
                problems.append(f"row {i}: {k} is {type(got.get(k)).__name__}, "
                                f"the line has {type(v).__name__}")
    return len(rows)


def check_duckdb(path, lines, problems):
    con = duckdb.connect()
    counts = dict(con.execute(
        "SELECT kind, count(*) FROM read_parquet(?) GROUP BY kind", [path]).fetchall())
    want = collections.Counter(line["kind"] for line in lines)
    if counts != dict(want):
        problems.append(f"duckdb counts by kind {counts}, the lines have {dict(want)}")
    (total,) = con.execute("SELECT count(*) FROM read_parquet(?)", [path]).fetchone()
    if total != len(lines):
        problems.append(f"duckdb reads {total} rows, {len(lines)} lines")
    return counts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("jsonl")
    ap.add_argument("parquet")
    ap.add_argument("--map", action="store_true", help="a run with --tags all")
    a = ap.parse_args()

    with open(a.jsonl, encoding="utf-8") as f:
        lines = [json.loads(line) for line in f]
    problems = []
    table = pq.read_table(a.parquet)
    tags = check_schema(table.schema, a.map, problems)
    rows = check_rows(table, lines, problems)
    counts = check_duckdb(a.parquet, lines, problems)
    row_groups = pq.ParquetFile(a.parquet).metadata.num_row_groups
    for p in problems[:10]:
        print(p)
    if len(problems) > 10:
        print(f"... {len(problems) - 10} more problems")
    print(f"{rows} rows in {row_groups} row groups, {len(tags)} tag columns"
          f"{' and a tags map' if a.map else ''}, by kind {counts}: "
          f"{'OK' if not problems else f'{len(problems)} problems'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
