"""An ``s3://`` event table, end to end, against a local S3-compatible server the test starts (moto's server
mode, in a subprocess on a free port, stopped after the module).

The store's Delta table is copied into a bucket; ``preflog spark audit|project|report|analyze`` read it with
the endpoint given the documented way (``AWS_ENDPOINT_URL`` and the AWS key pair in the environment:
docs/spark.md, "Where the table lives"). The driver lists the table with ``deltalake``, the grouped plan's
workers read its files with ``pyarrow.fs`` (no Hadoop jars). Checked: the findings equal ``preflog audit
--all --json`` finding for finding, the projections the workspace's row for row, the reports DuckDB's, and
``spark analyze`` writes its tables into the bucket and its report equals ``analyze --all``'s. Each failure
of the object store (no such bucket, a refused key, an endpoint nobody answers at) exits 2 with one line
naming the URL.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from pyarrow import fs
from typer.testing import CliRunner
from typer.testing import Result

from preflog import reports as duck_reports
from preflog.analysis.table import TABLES as ANALYSIS_TABLES
from preflog.analysis.table import table_files
from preflog.cli.app import app
from preflog.projections.store import read_table
from preflog.shipped import shipped
from preflog.sim import simulate_many
from preflog.spark.tables import SORT_KEYS
from preflog.workspace import Workspace
from tests.spark.cluster import HOST
from tests.spark.cluster import free_port

from .conftest import need_pyspark

pytestmark = [pytest.mark.timeout(900)]
runner = CliRunner()
KEY, SECRET, REGION = "testing-key", "testing-secret", "us-east-1"
TABLE = "s3://club-archive/preflog/events"


def need_moto() -> None:
    need_pyspark()
    if importlib.util.find_spec("moto") is None:
        if os.environ.get("PREFLOG_REQUIRE_SPARK") == "1":
            pytest.fail("PREFLOG_REQUIRE_SPARK=1 but moto is not installed (pip install -e '.[spark-test]')")
        pytest.skip("moto[server] (the spark-test extra) starts the S3-compatible server")


@contextmanager
def moto_server(log: Path, **env: str) -> Iterator[str]:
    """moto's S3-compatible server in a subprocess on a free port; its endpoint URL. Stopped on exit."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", HOST, "-p", str(port)],
                            env={**os.environ, **env}, stdout=open(log, "w"), stderr=subprocess.STDOUT)
    endpoint = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{endpoint}/moto-api/", timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("moto's server did not start: " + log.read_text()[-2000:])
                time.sleep(0.3)
        yield endpoint
    finally:
        proc.terminate()  # only the process this fixture started
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()


def s3(endpoint: str, key: str = KEY, secret: str = SECRET) -> fs.S3FileSystem:
    scheme, _, host = endpoint.partition("://")
    return fs.S3FileSystem(access_key=key, secret_key=secret, region=REGION, endpoint_override=host, scheme=scheme,
                           allow_bucket_creation=True)


def aws_env(monkeypatch: pytest.MonkeyPatch, endpoint: str, key: str = KEY, secret: str = SECRET) -> None:
    """What docs/spark.md tells a user to set: the endpoint, the region and the key pair."""
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ALLOW_HTTP", "AWS_DEFAULT_REGION"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ENDPOINT_URL", endpoint)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", key)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", secret)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")  # no instance-metadata probe on a test machine


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    """The seed examples (findings among them) and 12 bot-played pulkas, imported in three commits."""
    ws = Workspace(tmp_path_factory.mktemp("s3-store") / "store")
    ws.import_paths([shipped("data") / "examples"], workers=1)
    sims = list(simulate_many([{"rules_spec": "sochi", "players": 3, "pool": 6},
                               {"rules_spec": "croatian", "players": 3, "pool": 6},
                               {"rules_spec": "leningrad", "players": 4, "pool": 6}], 12, 3, workers=1, rows=True))
    ws.store().append_many([(f"sim-{i:03d}", 0, rows) for i, rows in sims[:6]])
    ws.store().append_many([(f"sim-{i:03d}", 0, rows) for i, rows in sims[6:]])
    ws.rebuild_projections()
    return ws


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """moto's server for this module; its endpoint URL."""
    need_moto()
    with moto_server(tmp_path_factory.mktemp("moto") / "moto.log") as url:
        yield url


@pytest.fixture(scope="module")
def endpoint(store: Workspace, server: str) -> str:
    """The server, with the store's Delta event table copied into a bucket (its log and files as they are)."""
    bucket = s3(server)
    bucket.create_dir("club-archive")
    fs.copy_files(str(store.root / "events"), TABLE[len("s3://"):], destination_filesystem=bucket)
    return server


@pytest.mark.needs_no_extra
def test_the_environment_gives_the_storage_options() -> None:
    """The documented variables as deltalake's options and pyarrow's S3 arguments (an http endpoint allowed)."""
    from preflog.spark.storage import s3_arguments
    from preflog.spark.storage import storage_options

    env = {"AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "AWS_DEFAULT_REGION": "eu-west-1",
           "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "HOME": "/root"}
    options = storage_options(env)
    assert options == {"AWS_ENDPOINT_URL": "http://127.0.0.1:9000", "AWS_REGION": "eu-west-1",
                       "AWS_ACCESS_KEY_ID": "k", "AWS_SECRET_ACCESS_KEY": "s", "AWS_ALLOW_HTTP": "true"}
    assert s3_arguments(options) == {"endpoint_override": "127.0.0.1:9000", "scheme": "http",
                                     "region": "eu-west-1", "access_key": "k", "secret_key": "s"}
    assert storage_options({"AWS_ENDPOINT_URL": "https://s3.club.example"}) == {
        "AWS_ENDPOINT_URL": "https://s3.club.example"}
    assert storage_options({}) == {}


def one_error_line(res: Result) -> str:
    assert isinstance(res.exception, SystemExit), res.exception
    assert res.exit_code == 2, res.output
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


@pytest.mark.slow
def test_the_commands_on_an_s3_table_equal_the_local_ones(spark: object, store: Workspace, endpoint: str,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    aws_env(monkeypatch, endpoint)
    out = tmp_path / "out"
    res = runner.invoke(app, ["spark", "project", str(out), "--store", TABLE])
    assert res.exit_code == 1, res.output                     # the seed examples hold findings
    files = len(list((store.root / "events").glob("*.parquet")))
    assert f"{TABLE} at version " in res.output and f"({files} files), groups plan on" in res.output, res.output

    # finding for finding: preflog audit --all --json on the local store
    local = runner.invoke(app, ["audit", "--all", "--json", "--store", str(store.root)])
    assert local.exit_code == 1, local.output
    want = Counter((p["id"], f["deal"], f["seq"], f["code"], f["message"])
                   for p in json.loads(local.output)["pulkas"] for f in p["findings"])
    got = Counter((r["pulka"], r["deal"], r["seq"], r["code"], r["message"])
                  for r in pq.read_table(out / "findings").to_pylist())
    assert got == want and sum(want.values()) > 0
    # the projections, row for row
    for table in ("deals", "player_deals", "pulka_results"):
        keys = [(k, "ascending") for k in SORT_KEYS[table]]
        rows = read_table(store.root, table)
        assert pq.read_table(out / table).cast(rows.schema).sort_by(keys).to_pylist() == \
            rows.sort_by(keys).to_pylist(), table
        assert rows.num_rows > 0
    # the reports over them
    res = runner.invoke(app, ["spark", "report", str(out)])
    assert res.exit_code == 0, res.output
    con = store.connect()
    for name in ("players", "players_by_level", "contracts", "variants"):
        pd.testing.assert_frame_equal(pd.read_parquet(out / "reports" / name).reset_index(drop=True),
                                      getattr(duck_reports, name)(con).reset_index(drop=True),
                                      check_dtype=False, rtol=1e-9, atol=1e-9)
    # the audit alone, into the bucket (the workers write the tables; the summary comes from Spark's frames)
    res = runner.invoke(app, ["spark", "audit", "s3://club-archive/audit-run", "--store", TABLE])
    assert res.exit_code == 1, res.output
    assert f"{sum(want.values())} findings" in res.output, res.output
    bucket = s3(endpoint)
    assert Counter((r["pulka"], r["deal"], r["seq"], r["code"], r["message"])
                   for r in pq.read_table("club-archive/audit-run/findings", filesystem=bucket).to_pylist()) == want
    with bucket.open_input_stream("club-archive/audit-run/_preflog.json") as f:
        assert sorted(json.loads(f.read())["tables"]) == ["audits", "findings", "settlements"]


@pytest.mark.slow
def test_spark_analyze_writes_its_tables_and_report_to_the_bucket(spark: object, store: Workspace, endpoint: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """OUT is an s3:// URI: the workers write the analysis tables into the bucket, the report comes from
    the tables Spark made (nothing is read back from a local folder)."""
    aws_env(monkeypatch, endpoint)
    out = "s3://club-archive/analysis-run"
    res = runner.invoke(app, ["spark", "analyze", out, "--store", TABLE, "--json"])
    assert res.exit_code == 0, res.output
    store.analyze_all(workers=1)
    doc = json.loads(res.output)
    assert doc["rows"] == store.analysis_report() and doc["rows"]
    bucket = s3(endpoint)
    for t in ANALYSIS_TABLES:
        local = pa.concat_tables([pq.read_table(f) for f in table_files(store.root, t)])
        keys = [(k, "ascending") for k in ("pulka", "deal", "seq" if t == "cards" else "seat")
                if k in local.schema.names]
        remote = pq.read_table(f"club-archive/analysis-run/analysis/{t}", filesystem=bucket)
        assert remote.cast(local.schema).sort_by(keys).to_pylist() == local.sort_by(keys).to_pylist(), t
    with bucket.open_input_stream("club-archive/analysis-run/_preflog.json") as f:
        record = json.loads(f.read())["tables"]
    assert record["analysis/deals"]["table"] == TABLE and record["analysis/deals"]["plan"] == "groups"

    # a second run into the same OUT replaces the tables (no file of the first run is left beside them)
    res = runner.invoke(app, ["spark", "analyze", out, "--store", TABLE, "--json"])
    assert res.exit_code == 0, res.output
    again = pq.read_table("club-archive/analysis-run/analysis/deals", filesystem=bucket)
    assert again.num_rows == pa.concat_tables([pq.read_table(f) for f in table_files(store.root, "deals")]).num_rows


def test_no_such_bucket_is_one_line_naming_the_url(server: str, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    aws_env(monkeypatch, server)
    line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store",
                                              "s3://no-such-bucket/preflog/events"]))
    assert "s3://no-such-bucket/preflog/events" in line and "no such bucket" in line


def test_an_endpoint_nobody_answers_at_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    need_moto()
    aws_env(monkeypatch, f"http://{HOST}:{free_port()}")
    started = time.monotonic()
    line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", TABLE]))
    assert TABLE in line and "refuses connections" in line
    assert time.monotonic() - started < 120


def _iam_user(url: str, *statements: dict[str, Any]) -> tuple[str, str]:
    """A user of moto's IAM with a policy of ``statements``; its key pair."""
    import boto3

    iam = boto3.client("iam", endpoint_url=url, region_name=REGION, aws_access_key_id="x",
                       aws_secret_access_key="x")
    iam.create_user(UserName="club")
    iam.put_user_policy(UserName="club", PolicyName="all", PolicyDocument=json.dumps({
        "Version": "2012-10-17", "Statement": list(statements)}))
    made = iam.create_access_key(UserName="club")["AccessKey"]
    return made["AccessKeyId"], made["SecretAccessKey"]


def _table_in_bucket(url: str, key: str, secret: str, tmp_path: Path) -> None:
    ws = Workspace(tmp_path / "store")
    ws.import_paths(sorted((shipped("data") / "examples").glob("*.pref"))[:2], workers=1)
    bucket = s3(url, key, secret)
    bucket.create_dir("club-archive")
    fs.copy_files(str(ws.root / "events"), TABLE[len("s3://"):], destination_filesystem=bucket)


ALLOW_ALL = {"Effect": "Allow", "Action": "*", "Resource": "*"}


@pytest.mark.slow   # a Spark job runs (the workers are refused): not in the pure run's unmarked suite
def test_a_key_that_may_not_read_the_data_files_is_one_line_naming_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver lists the table (its log is readable) but the workers are refused every data file: the one
    line names the file and says the read was refused, not that the file is damaged."""
    need_moto()
    with moto_server(tmp_path / "moto.log", INITIAL_NO_AUTH_ACTION_COUNT="3") as url:
        key, secret = _iam_user(url, ALLOW_ALL, {"Effect": "Deny", "Action": "s3:GetObject",
                                                 "Resource": "arn:aws:s3:::club-archive/*.parquet"})
        _table_in_bucket(url, key, secret, tmp_path)
        aws_env(monkeypatch, url, key, secret)
        line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", TABLE]))
        assert line.startswith(f"error: {TABLE}/") and ".parquet: a worker may not read this file" in line, line
        assert "ACCESS_DENIED" in line and "unreadable" not in line


def test_a_refused_key_is_one_line_naming_the_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that checks signatures (moto's IAM mode: the first three requests, which make the user and
    its key, go unchecked): the table copied with the right key, the job run with a wrong secret."""
    need_moto()
    with moto_server(tmp_path / "moto.log", INITIAL_NO_AUTH_ACTION_COUNT="3") as url:
        key, secret = _iam_user(url, ALLOW_ALL)
        _table_in_bucket(url, key, secret, tmp_path)

        aws_env(monkeypatch, url, key, "not-the-secret")
        line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", TABLE]))
        assert TABLE in line and "secret key is refused" in line
        aws_env(monkeypatch, url, "AKIANOSUCHKEY0000000", secret)
        line = one_error_line(runner.invoke(app, ["spark", "audit", str(tmp_path / "o"), "--store", TABLE]))
        assert TABLE in line and "access key is refused" in line
