"""Where a data file of a Delta table is, as a reader opens it: the one place the log's URIs become paths.

A Delta log names its data files as URIs: an ``add`` action's path is relative to the table and
percent-encoded (RFC 3986), and deltalake's ``file_uris()`` joins it to the table's own URI, encoded the
same way (``/srv/ann/My%20Games/s/events/part-….parquet``, no ``file://``). DuckDB, pyarrow and the file
system take a local file by its path, so a folder whose name holds a space, Cyrillic letters, ``#`` or
``%`` must be decoded first, or the file "does not exist". A remote file (``s3://``, ``gs://``, …) stays
the URI it is: its file systems take URIs.

>>> reader_uri("/srv/ann/%D0%9C%D0%BE%D0%B8%20%D0%B8%D0%B3%D1%80%D1%8B%20%231%20100%25/part-0.parquet")
'/srv/ann/Мои игры #1 100%/part-0.parquet'
>>> reader_uri("s3://club/My%20Games/part-0.parquet")
's3://club/My%20Games/part-0.parquet'
>>> data_file("/srv/ann/Мои игры #1 100%/events", "part-0%20a.parquet")
'/srv/ann/Мои игры #1 100%/events/part-0 a.parquet'
>>> data_file("s3://club/events/", "part-0.parquet")
's3://club/events/part-0.parquet'
"""

from __future__ import annotations

import os
from urllib.parse import unquote
from urllib.parse import urlsplit
from urllib.request import url2pathname


def remote(uri: str) -> bool:
    """Whether ``uri`` names a file of a remote store (a scheme other than ``file``; a Windows drive
    letter such as ``C:`` is not a scheme)."""
    scheme, sep, _rest = uri.partition("://")
    return bool(sep) and len(scheme) > 1 and scheme.lower() != "file"


def reader_uri(uri: str) -> str:
    """A data file's URI from a Delta log (``file_uris()``) as readers open it: a local file as its decoded
    path (``file://`` URIs too: on Windows ``file:///C:/…`` becomes ``C:\\…``), a remote one unchanged."""
    if remote(uri):
        return uri
    if uri.lower().startswith("file:"):
        return url2pathname(urlsplit(uri).path)
    return unquote(uri)


def data_file(table: str | os.PathLike[str], path: str) -> str:
    """An ``add`` action's ``path`` (relative to ``table`` and percent-encoded, or an absolute URI) as
    :func:`reader_uri` gives it; ``table`` is the table's folder, or its URI for a remote table."""
    if remote(path) or path.lower().startswith("file:"):
        return reader_uri(path)
    root = os.fspath(table)
    if remote(root):
        return root.rstrip("/") + "/" + path
    return os.path.join(root, unquote(path))


__all__ = ["data_file", "reader_uri", "remote"]
