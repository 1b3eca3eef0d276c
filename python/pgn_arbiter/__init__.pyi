from os import PathLike
from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

import pyarrow as pa

__version__: str

def audit(
    paths: Union[str, PathLike[str], Sequence[Union[str, PathLike[str]]]],
    *,
    laws: str = "auto",
    dead: str = "quick",
    site: str = "auto",
    threads: Optional[int] = None,
    tags: Optional[str] = None,
    errors: str = "raise",
) -> Tuple[pa.Table, dict]: ...
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
) -> Tuple[pa.Table, dict]: ...
def merge_summaries(summaries: Iterable[dict]) -> dict: ...
def report(
    paths: Union[str, PathLike[str], Sequence[Union[str, PathLike[str]]]],
    *,
    laws: str = "auto",
    dead: str = "quick",
    site: str = "auto",
    threads: Optional[int] = None,
    duplicates: str = "once",
) -> dict: ...
def read_report(path: Union[str, PathLike[str]]) -> dict: ...
def merge_reports(parts: Sequence[dict]) -> dict: ...
def plan(
    paths: Union[str, PathLike[str], Sequence[Union[str, PathLike[str]]]], parts: int
) -> list: ...
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
) -> tuple: ...
def merge_parts(parts: Sequence[tuple]) -> tuple: ...
