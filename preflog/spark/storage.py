"""Object storage without Hadoop jars: how the Spark job's driver (the ``deltalake`` listing of the event
table, ``OUT/_preflog.json``) and its Python workers (pyarrow reads of the event files, pyarrow writes of the
output tables) reach an ``s3://`` location. No pyspark here.

The settings are the AWS SDKs' own environment variables, read on the driver:

* ``AWS_ENDPOINT_URL`` — an S3-compatible server (MinIO, Ceph, a local emulator); an ``http://`` endpoint
  is allowed as given;
* ``AWS_REGION`` (or ``AWS_DEFAULT_REGION``);
* ``AWS_ACCESS_KEY_ID``, ``AWS_SECRET_ACCESS_KEY`` and ``AWS_SESSION_TOKEN``.

:func:`storage_options` gathers them as ``deltalake`` storage options. The driver hands the same options to
every task it plans, so the workers read and write with the driver's settings and need none of their own
(without keys in the driver's environment, they fall back on their own credential chain, e.g. an instance
role). :func:`filesystem` makes the ``pyarrow.fs`` file system of a URI with them.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from collections.abc import Iterator
from collections.abc import Mapping
from typing import Any

import pyarrow as pa

ENV_KEYS = ("AWS_ENDPOINT_URL", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")
OBJECT_SCHEMES = ("s3",)  # what the workers reach through pyarrow.fs (s3a:// is Hadoop's: Spark's own writer)


def is_object_uri(uri: str) -> bool:
    """An ``s3://`` location: read and written by pyarrow, never by Spark's Hadoop file systems."""
    return uri.split("://", 1)[0].lower() in OBJECT_SCHEMES if "://" in uri else False


def storage_options(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The driver's AWS settings (:data:`ENV_KEYS`) as ``deltalake`` storage options; an ``http://``
    endpoint adds ``AWS_ALLOW_HTTP`` (deltalake refuses plain HTTP otherwise). Empty without any."""
    env = os.environ if env is None else env
    out = {k: env[k] for k in ENV_KEYS if env.get(k)}
    if "AWS_REGION" not in out and env.get("AWS_DEFAULT_REGION"):
        out["AWS_REGION"] = env["AWS_DEFAULT_REGION"]
    if out.get("AWS_ENDPOINT_URL", "").lower().startswith("http://"):
        out["AWS_ALLOW_HTTP"] = "true"
    return out


def s3_arguments(storage: Mapping[str, str]) -> dict[str, Any]:
    """``pyarrow.fs.S3FileSystem`` arguments from the storage options (what is not given, pyarrow takes
    from its own credential chain)."""
    out: dict[str, Any] = {}
    names = {"AWS_ACCESS_KEY_ID": "access_key", "AWS_SECRET_ACCESS_KEY": "secret_key",
             "AWS_SESSION_TOKEN": "session_token", "AWS_REGION": "region"}
    for key, value in storage.items():
        if key.upper() in names:
            out[names[key.upper()]] = value
        elif key.upper() == "AWS_ENDPOINT_URL":
            scheme, _, rest = value.partition("://")
            out["endpoint_override"] = rest.rstrip("/") or value
            out["scheme"] = scheme if rest else "https"
    return out


def filesystem(uri: str, storage: Mapping[str, str] | None = None) -> tuple[Any, str]:
    """The ``pyarrow.fs`` file system of ``uri`` and the path within it: ``s3://`` with the storage options
    (:func:`storage_options` when none are given), anything else as pyarrow resolves it."""
    from pyarrow import fs

    if is_object_uri(uri):
        options = storage_options() if storage is None else storage
        return fs.S3FileSystem(**s3_arguments(options)), uri.split("://", 1)[1]
    located, where = fs.FileSystem.from_uri(uri)
    return located, str(where)


def join(base: str, name: str) -> str:
    return f"{base.rstrip('/')}/{name}"


def part_writer(folder: str, schema: pa.Schema, storage: Mapping[str, str]
                ) -> Callable[[Iterator[pa.RecordBatch]], Iterator[pa.RecordBatch]]:
    """The worker function of ``mapInArrow`` that writes its partition's rows (``schema``) as one Parquet
    file under ``folder`` and yields one row (:data:`WRITTEN_SCHEMA`: the file's path and rows); an empty
    partition writes nothing. The file names are random: the driver keeps the files the finished tasks
    reported and deletes the rest (:func:`keep_only`), so a retried task leaves no duplicate."""
    options = dict(storage)

    def write(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow.parquet as pq

        writer = None
        rows = 0
        fs, base = filesystem(folder, options)
        where = join(base, f"part-{uuid.uuid4().hex}.parquet")
        try:
            for batch in batches:
                if batch.num_rows == 0:
                    continue
                if writer is None:
                    writer = pq.ParquetWriter(where, schema, filesystem=fs)
                writer.write_table(pa.Table.from_batches([batch]).cast(schema))
                rows += batch.num_rows
        finally:
            if writer is not None:
                writer.close()
        if writer is not None:
            yield pa.RecordBatch.from_pylist([{"file": where, "rows": rows}], schema=WRITTEN_SCHEMA)

    return write


WRITTEN_SCHEMA = pa.schema([("file", pa.string()), ("rows", pa.int64())])


def clear(folder: str, storage: Mapping[str, str]) -> None:
    """Remove a table's folder before it is written again (``overwrite``); nothing when it is absent."""
    from pyarrow import fs as pafs

    fs, base = filesystem(folder, storage)
    if fs.get_file_info(base).type != pafs.FileType.NotFound:
        fs.delete_dir(base)


def keep_only(folder: str, written: set[str], storage: Mapping[str, str]) -> None:
    """Delete the files under ``folder`` that no finished task reported (the leftovers of failed attempts)."""
    from pyarrow import fs as pafs

    fs, base = filesystem(folder, storage)
    for info in fs.get_file_info(pafs.FileSelector(base, allow_not_found=True)):
        if info.type == pafs.FileType.File and info.path not in written:
            fs.delete_file(info.path)
