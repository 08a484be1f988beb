"""Parquet files of per-game arrays: the chunks of a run directory.

A file holds the games ``first .. first + games`` of a run as one table: the column ``game``
(the game's index in the run, int64), then one column per cell of each per-game array of
``_results.SCHEMA``, named and ordered by :func:`tradewinds._results.columns` (``scores_p0``,
``winners_p0``, ``moves``, ``category_points_<category>_p0``, ``opponent_scores_<opponent>``,
``tier``, ...), each of its array's element type. Its key-value metadata holds, under the key
``tradewinds``, a JSON object: the file's format tag and version, the chunk's own entries
(``index``, ``first``, ``games``, ``seed`` and the run's ``run_id``; its timing is in the
run directory's chunk log, so that a chunk holds only what its games determine), ``run`` (the game,
its options, the seed, the agents, the names along the axes) and ``statistics`` (the chunk's
:class:`~tradewinds._stats.RunStatistics`, so that a run's summary decodes only the files'
footers). Columns are compressed with zstd. The format version is ``_results.FILE_VERSION``
(that of saved results too), the only one read: a file of another version is refused.

A chunk's games are read through ``pyarrow.dataset`` (a fragment of the file's contents, which
the caller has checked against the run's chunk log); its footer alone through
``pyarrow.parquet``. Reading and writing need pyarrow (``pip install 'tradewinds[parquet]'``);
nothing else of tradewinds does, so it is imported here, when a file is read or written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from ._optional import import_optional
from ._results import FILE_VERSION, SCHEMA, Layout, axis_sizes, columns

__all__ = ["require", "write_chunk", "read_chunk", "read_chunk_meta", "read_chunk_tag", "KEY", "TAG", "INSTALL"]

#: The format tag of a chunk's metadata.
TAG = "tradewinds-simulation-chunk"
#: The key of the file's key-value metadata that holds tradewinds' JSON object.
KEY = b"tradewinds"
#: How to install pyarrow, as error messages say it.
INSTALL = "`pip install 'tradewinds[parquet]'` (or `pip install pyarrow`)"


def require(needed_by: str) -> tuple[Any, Any]:
    """``(pyarrow, pyarrow.parquet)``; an ``ImportError`` saying that ``needed_by`` needs
    pyarrow and how to install it when it is missing."""
    pa = import_optional("pyarrow", needed_by, "pyarrow", INSTALL)
    pq = import_optional("pyarrow.parquet", needed_by, "pyarrow", INSTALL)
    return pa, pq


def _schema(pa: Any, layout: Layout) -> Any:
    """The columns of a file of games of ``layout``."""
    kinds = {a.name: np.dtype(a.dtype) for a in SCHEMA}
    fields = [pa.field("game", pa.int64(), nullable=False)]
    fields += [pa.field(c.name, pa.from_numpy_dtype(kinds[c.array]), nullable=False) for c in columns(layout)]
    return pa.schema(fields)


def write_chunk(
    file: IO[bytes], meta: Mapping[str, Any], arrays: Mapping[str, npt.NDArray[Any]], layout: Layout, first: int
) -> None:
    """Writes the games whose per-game arrays are ``arrays`` (of ``layout``; the first is game
    ``first`` of its run) to ``file`` as a Parquet file with the JSON object ``meta`` (which
    must carry :data:`TAG` and the current version) in its metadata."""
    pa, pq = require("a run directory's Parquet chunks")
    games = int(arrays["moves"].shape[0])
    values: list[Any] = [np.arange(first, first + games, dtype=np.int64)]
    for c in columns(layout):
        index: tuple[Any, ...] = (slice(None), *c.cell)
        values.append(arrays[c.array][index])
    schema = _schema(pa, layout).with_metadata({KEY: json.dumps(meta).encode("utf-8")})
    table = pa.Table.from_arrays([_arrow(pa, v, f.type) for v, f in zip(values, schema)], schema=schema)
    pq.write_table(table, file, compression="zstd")


def _arrow(pa: Any, values: npt.NDArray[Any], kind: Any) -> Any:
    """An Arrow array of type ``kind`` over the values of a one-dimensional numpy array, built
    from its buffer (``pa.array`` would import pandas, for a few tens of megabytes)."""
    values = np.ascontiguousarray(values)
    data = np.packbits(values, bitorder="little") if values.dtype == np.bool_ else values
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(data)])


def _meta_of(metadata: Mapping[bytes, bytes] | None) -> dict[str, Any]:
    """The JSON object under :data:`KEY` in a file's metadata; raises ``ValueError`` saying
    why when there is none, it is not a chunk's or its version is not the one this
    tradewinds reads."""
    if not metadata or KEY not in metadata:
        raise ValueError("it has no tradewinds metadata")
    try:
        meta = json.loads(metadata[KEY].decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError("its tradewinds metadata is not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != TAG:
        raise ValueError("it is not a tradewinds simulation chunk")
    version = meta.get("version")
    if type(version) is not int or version != FILE_VERSION:
        raise ValueError(f"it has {TAG} format version {json.dumps(version)}; this tradewinds reads version "
                         f"{FILE_VERSION} only")
    return meta


def _check_columns(pa: Any, schema: Any, layout: Layout) -> None:
    if schema.remove_metadata() != _schema(pa, layout):
        got = ", ".join(schema.names[:4]) + (", ..." if len(schema.names) > 4 else "")
        raise ValueError(f"its columns ({got}) are not those of this run's games")


def _source(pa: Any, path: str | os.PathLike[str] | bytes) -> Any:
    """What pyarrow reads: a path, or the file's contents already read (and checked)."""
    return pa.BufferReader(path) if isinstance(path, bytes) else path


def read_chunk_meta(path: str | os.PathLike[str] | bytes, layout: Layout) -> tuple[dict[str, Any], int]:
    """The JSON object in the metadata of Parquet chunk ``path`` (a path, or the file's
    contents) and the number of its rows, from its footer alone. Raises ``ValueError`` saying
    why when the file is not a Parquet chunk of a version this tradewinds reads, or its
    columns are not those of games of ``layout``."""
    pa, pq = require("reading a run directory's Parquet chunks")
    try:
        footer = pq.read_metadata(_source(pa, path))
    except (OSError, pa.ArrowException) as e:
        raise ValueError(f"unreadable ({type(e).__name__}: {e})") from None
    meta = _meta_of(footer.metadata)
    _check_columns(pa, footer.schema.to_arrow_schema(), layout)
    return meta, int(footer.num_rows)


def read_chunk_tag(path: str | os.PathLike[str] | bytes) -> dict[str, Any]:
    """The JSON object in the metadata of Parquet chunk ``path`` (a path, or the file's
    contents), from its footer, whatever its columns (a chunk of another run's games).
    Raises ``ValueError`` saying why when the file is not a Parquet chunk of a version this
    tradewinds reads."""
    pa, pq = require("reading a run directory's Parquet chunks")
    try:
        footer = pq.read_metadata(_source(pa, path))
    except (OSError, pa.ArrowException) as e:
        raise ValueError(f"unreadable ({type(e).__name__}: {e})") from None
    return _meta_of(footer.metadata)


def read_chunk(data: bytes, layout: Layout) -> tuple[
        dict[str, Any], npt.NDArray[np.int64], dict[str, npt.NDArray[Any]]]:
    """The metadata, the ``game`` column and the per-game arrays of the Parquet chunk whose
    contents are ``data``, of games of ``layout``, read as a ``pyarrow.dataset`` fragment.
    Raises ``ValueError`` saying why when it cannot be read, is not a chunk of the version
    this tradewinds reads, or its columns are not those of games of ``layout``."""
    pa, _ = require("reading a run directory's Parquet chunks")
    ds = import_optional("pyarrow.dataset", "reading a run directory's Parquet chunks", "pyarrow", INSTALL)
    try:
        fragment = ds.ParquetFileFormat().make_fragment(pa.BufferReader(data))
        meta = _meta_of(fragment.physical_schema.metadata)
        _check_columns(pa, fragment.physical_schema, layout)
        # On the calling thread: runs already spread chunks over threads, and Arrow's own
        # pool threads still alive at interpreter exit can abort the process
        # (apache/arrow#34314).
        table = fragment.to_table(use_threads=False)
    except (OSError, pa.ArrowException) as e:
        raise ValueError(f"unreadable ({type(e).__name__}: {e})") from None
    games = table.num_rows
    sizes = axis_sizes(layout)
    cells: dict[str, list[str]] = {a.name: [] for a in SCHEMA}
    for c in columns(layout):
        cells[c.array].append(c.name)
    arrays = {}
    for a in SCHEMA:
        values = [table.column(name).to_numpy() for name in cells[a.name]]
        stacked = np.stack(values, axis=1) if values else np.empty((games, 0), dtype=a.dtype)
        arrays[a.name] = stacked.astype(a.dtype, copy=False).reshape(games, *(sizes[axis] for axis in a.axes))
    return meta, table.column("game").to_numpy(), arrays
