"""The one place a Delta log's file URIs become what readers open (:mod:`preflog.store.uris`)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

import pytest

from preflog.store.uris import data_file
from preflog.store.uris import reader_uri
from preflog.store.uris import remote

ODD = "/srv/ann/Мои игры #1 100%/s/events/part-0.parquet"


def test_a_local_uri_is_decoded_whatever_the_folder_holds() -> None:
    assert reader_uri(quote(ODD)) == ODD
    assert reader_uri(Path(ODD).as_uri()) == ODD  # file:///srv/ann/%D0%9C…
    assert reader_uri("/tmp/100%2541/x.parquet") == "/tmp/100%41/x.parquet"  # decoded once, never twice


@pytest.mark.parametrize("uri", ["s3://club/My%20Games/part-0.parquet", "gs://b/p%231.parquet",
                                 "abfss://c@a.dfs.core.windows.net/t/x.parquet"])
def test_a_remote_uri_stays_as_it_is(uri: str) -> None:
    assert remote(uri) and reader_uri(uri) == uri


def test_a_windows_path_is_a_local_path() -> None:
    """A drive letter is not a scheme: ``C:/Users/Ёжик`` as deltalake writes it on Windows is decoded."""
    assert not remote("C:/Users/x.parquet") and not remote("C:\\Users\\x.parquet")
    assert reader_uri("C:/Users/%D0%81%D0%B6%D0%B8%D0%BA/x.parquet") == "C:/Users/Ёжик/x.parquet"


def test_an_add_actions_path_joins_its_table() -> None:
    assert data_file("/srv/ann/Мои игры #1 100%/s/events", "part-0.parquet") == ODD
    assert data_file("/t", "sub/p%20q.parquet") == "/t/sub/p q.parquet"
    assert data_file("s3://club/events/", "p%20q.parquet") == "s3://club/events/p%20q.parquet"
    assert data_file("/t", "s3://other/p.parquet") == "s3://other/p.parquet"
