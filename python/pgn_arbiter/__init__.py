"""Audit chess game databases against the FIDE Laws of Chess, from Python.

The same engine as the ``pgn-arbiter`` command line: findings come back as a
``pyarrow.Table`` with the fields of the CLI's JSON Lines (one row per
finding), the run's counts as the ``dict`` its ``--summary-json`` writes.

>>> import pgn_arbiter
>>> findings, summary = pgn_arbiter.audit(["games.pgn.zst"])   # doctest: +SKIP
>>> findings.group_by("kind").aggregate([("game", "count")])   # doctest: +SKIP

``findings.to_pandas()`` is pyarrow's and needs pandas, which this package
does not require: ``pip install "./python[pandas]"`` (or ``pip install
pandas``).
"""

from __future__ import annotations

import json
import os
from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

import pyarrow as pa

from . import _pgn_arbiter

__all__ = [
    "audit", "audit_arrow", "report", "read_report", "merge_reports", "merge_summaries",
    "plan", "audit_part", "merge_parts", "__version__",
]
__version__ = _pgn_arbiter.__version__

PathLike = Union[str, "os.PathLike[str]"]


def _table(batches, schema) -> pa.Table:
    return pa.Table.from_batches(batches, schema=schema)


def audit(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    laws: str = "auto",
    dead: str = "quick",
    site: str = "auto",
    threads: Optional[int] = None,
    tags: Optional[str] = None,
    errors: str = "raise",
) -> Tuple[pa.Table, dict]:
    """Audit PGN files (``.pgn``, ``.pgn.zst``), Parquet files of games in the
    layout of the Lichess dataset on Hugging Face (``.parquet``), or
    directories of them.

    ``laws``: ``"auto"`` (by each game's date), ``"2001"``, ``"2014"`` or
    ``"2018"``. ``dead``: ``"material"``, ``"quick"`` (the default) or
    ``"thorough"``. ``site``: also judge online games by their site's own
    rules (``site_rule`` findings): ``"auto"`` (by the ``Site`` tag),
    ``"none"``, ``"lichess"``, ``"chesscom"`` or ``"fics"``. The line's
    ``site`` is the column ``rule_site`` (beside the ``Site`` tag's column).
    ``threads``: worker threads (default: one per core).
    ``tags``: extra tags to keep as columns (``"all"`` for every tag, as a
    map column). ``errors``: ``"raise"`` raises ``OSError`` naming the first
    path that cannot be read; ``"summary"`` only counts it (``input_errors``).

    Returns ``(findings, summary)``: one row per finding, with the columns of
    the CLI's ``--jsonl`` lines, in input order; and the ``--summary-json``
    object. The GIL is released while the audit runs. ``findings`` is a
    ``pyarrow.Table``; its ``to_pandas()`` needs pandas (``pip install
    "./python[pandas]"``).
    """
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    paths = [str(p) for p in paths]
    if errors not in ("raise", "summary"):
        raise ValueError(f"errors={errors!r}: expected 'raise' or 'summary'")
    batches, schema, summary = _pgn_arbiter.audit(
        paths, laws=laws, dead=dead, site=site, threads=threads, tags=tags, errors=errors
    )
    return _table(batches, schema), json.loads(summary)


def audit_arrow(
    movetext: Union[pa.Array, pa.ChunkedArray],
    tags: Optional[Mapping[str, Union[pa.Array, pa.ChunkedArray]]] = None,
    *,
    name: str = "<arrow>",
    laws: str = "auto",
    dead: str = "quick",
    site: str = "auto",
    threads: Optional[int] = None,
    keep_tags: Optional[str] = None,
) -> Tuple[pa.Table, dict]:
    """Audit games held in Arrow arrays, one game per row.

    ``movetext``: the moves of each game (a string array, as the
    ``movetext`` column of the Lichess dataset on Hugging Face; any other
    type is a ``ValueError`` naming the column); ``tags``:
    tag name to array (``Event``, ``White``, ``Result``, ``UTCDate``,
    ``Termination``, ...), each as long as ``movetext``: strings, integers,
    floats, dates and times are written as the CLI's Parquet input writes
    them (``2013.01.01``, ``1500``); an array of nulls only (pyarrow's
    ``null`` type) is a missing tag, as in the CLI's Parquet input; another
    type is a ``ValueError`` naming the tag. ``UTCDate`` stands
    for ``Date`` when there is no ``Date``, so the laws edition follows the
    day the game was played. Each finding's ``game`` is its row's index and
    its ``file`` is ``name``. Returns ``(findings, summary)`` as
    :func:`audit` does.
    """
    tags = dict(tags or {})

    def strings(array) -> pa.Array:
        # Strings, integers, floats, dates and times are written as tags
        # exactly as the CLI's Parquet input writes them.
        if isinstance(array, pa.ChunkedArray):
            array = array.combine_chunks()
        if not isinstance(array, pa.Array):
            array = pa.array(array)
        return array

    names = list(tags)
    batches, schema, summary = _pgn_arbiter.audit_arrow(
        strings(movetext),
        names,
        [strings(tags[n]) for n in names],
        name=name,
        laws=laws,
        dead=dead,
        site=site,
        threads=threads,
        tags=keep_tags,
    )
    return _table(batches, schema), json.loads(summary)


def report(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    laws: str = "auto",
    dead: str = "quick",
    site: str = "auto",
    threads: Optional[int] = None,
    duplicates: str = "once",
) -> dict:
    """The statistics report's aggregate of the games in ``paths``: what
    ``pgn-arbiter audit --report-json`` writes (breakdowns by year, edition,
    time control, rating, termination, event; players; points under Art.
    11). A game that repeats an earlier one (same players, date, round,
    start position and moves) counts once with ``duplicates="once"`` (the
    CLI's default) or each time with ``"all"``; repeats are listed either
    way. Aggregates of the parts of an archive merge with
    :func:`merge_reports`; ``pgn-arbiter report`` renders them."""
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    text = _pgn_arbiter.report(
        [str(p) for p in paths],
        laws=laws,
        dead=dead,
        site=site,
        threads=threads,
        duplicates=duplicates,
    )
    return json.loads(text)


def merge_summaries(summaries: Iterable[dict]) -> dict:
    """One summary for several runs (the parts of an archive, or the tasks
    of a Dask job): counts added, inputs concatenated in order, merged in
    Rust by the rules of the CLI's counts. It equals the summary of one run
    over the whole but for ``seconds`` (added) and ``threads`` (the
    largest). Summaries judged by different laws raise ``ValueError``."""
    return json.loads(_pgn_arbiter.merge_summaries([json.dumps(s) for s in summaries]))


def read_report(path: PathLike) -> dict:
    """The aggregate that ``pgn-arbiter audit --report-json PATH`` (or
    ``report --json PATH``) wrote, with the games for merging that it keeps
    in the binary file beside it (``PATH.ids``) read back in, so that
    :func:`merge_reports` can merge it."""
    return json.loads(_pgn_arbiter.read_report(os.fspath(path)))


def merge_reports(parts: Sequence[dict]) -> dict:
    """One aggregate for several (the parts of an archive), merged by the
    same rules as ``pgn-arbiter report AGG.json...``."""
    return json.loads(_pgn_arbiter.merge_reports([json.dumps(p) for p in parts]))


def plan(paths: Union[PathLike, Sequence[PathLike]], parts: int) -> list:
    """The parts of ``paths`` (files or directories), about ``parts`` of
    them of about equal size on disk, as ``pgn-arbiter plan`` writes them:
    a list of spec strings (``"3/64:bytes=S-E:big.pgn"``), in input order.
    Plain PGN is cut at game boundaries, pzstd files (Lichess's dumps) into
    ranges of frames, Parquet into ranges of row groups; a file that cannot
    be cut (a single zstd frame) is one part."""
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    specs, _notes = _pgn_arbiter.plan([str(p) for p in paths], parts)
    return specs


def audit_part(
    spec: str,
    *,
    laws: str = "auto",
    dead: str = "quick",
    site: str = "auto",
    threads: Optional[int] = None,
    tags: Optional[str] = None,
    report: bool = False,
    duplicates: str = "once",
) -> tuple:
    """Audit one part of a plan (see :func:`plan`): ``(findings, summary)``
    as :func:`audit` returns them, or ``(findings, summary, aggregate)``
    with ``report=True`` (``duplicates`` as in :func:`report`). ``game``,
    ``offset`` and ``line`` count from the part's start; :func:`merge_parts`
    makes them the whole file's."""
    batches, schema, summary, aggregate = _pgn_arbiter.audit_part(
        spec,
        laws=laws,
        dead=dead,
        site=site,
        threads=threads,
        tags=tags,
        report=report,
        duplicates=duplicates,
    )
    out = (_table(batches, schema), json.loads(summary))
    return out + (json.loads(aggregate),) if report else out


def merge_parts(parts: Sequence[tuple]) -> tuple:
    """The outputs of every part of a plan (each what :func:`audit_part`
    returned, in any order) as one run over the whole: ``(findings,
    summary)``, or ``(findings, summary, aggregate)`` when every part has an
    aggregate. Merged in Rust by the CLI's ``pgn-arbiter merge``."""
    parts = list(parts)
    if not parts:
        raise ValueError("no part to merge")
    schema = parts[0][0].schema
    native = [
        (
            [b for b in p[0].to_batches() if b.num_rows],
            json.dumps(p[1]),
            json.dumps(p[2]) if len(p) > 2 and p[2] is not None else None,
        )
        for p in parts
    ]
    batches, summary, aggregate = _pgn_arbiter.merge_parts(native)
    out = (_table(batches, schema), json.loads(summary))
    return out + (json.loads(aggregate),) if aggregate is not None else out
