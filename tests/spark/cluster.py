"""A Spark standalone cluster on this machine, for the Spark tests (tests/spark/test_spark_cluster.py, the
S3 test's ports) and the cluster benchmark (benchmarks/spark_cluster.py): a master and single-core workers
started with pyspark's own launcher (``bin/spark-class``)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"


def free_port() -> int:
    s = socket.socket()
    s.bind((HOST, 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


def status(port: int) -> dict[str, Any]:
    """A standalone master's or worker's status page (``/json/`` of its web UI)."""
    with urllib.request.urlopen(f"http://{HOST}:{port}/json/", timeout=10) as r:
        doc: dict[str, Any] = json.load(r)
    return doc


@dataclass(frozen=True)
class Cluster:
    master: str
    """The master's URL (``spark://HOST:PORT``)."""
    worker_uis: tuple[int, ...]
    """Each worker's web UI port (its :func:`status` lists the executors it ran)."""


@contextmanager
def cluster(work: Path, workers: int = 2, memory: str = "2g") -> Iterator[Cluster]:
    """A standalone master and ``workers`` single-core workers on this machine (pyspark's ``spark-class``),
    their logs and work folders under ``work``; stops only the processes it started. The benchmark and
    ``tests/spark/test_spark_cluster.py`` both start theirs here."""
    import pyspark

    home = Path(pyspark.__file__).parent
    spark_class = home / "bin" / "spark-class"
    env = {**os.environ, "SPARK_HOME": str(home), "SPARK_LOCAL_IP": HOST, "SPARK_LOG_DIR": str(work)}
    port, ui = free_port(), free_port()
    master = f"spark://{HOST}:{port}"
    procs = [subprocess.Popen([str(spark_class), "org.apache.spark.deploy.master.Master", "--host", HOST,
                               "--port", str(port), "--webui-port", str(ui)], env=env,
                              stdout=open(work / "master.log", "w"), stderr=subprocess.STDOUT)]
    worker_uis = tuple(free_port() for _ in range(workers))
    for i, wui in enumerate(worker_uis):
        procs.append(subprocess.Popen(
            [str(spark_class), "org.apache.spark.deploy.worker.Worker", master, "--host", HOST, "--cores", "1",
             "--memory", memory, "--webui-port", str(wui), "--work-dir", str(work / f"w{i}")], env=env,
            stdout=open(work / f"worker{i}.log", "w"), stderr=subprocess.STDOUT))
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                if sum(w["state"] == "ALIVE" for w in status(ui)["workers"]) == workers:
                    break
            except (OSError, ValueError):  # not up yet, or a page that is not the status yet
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the standalone cluster did not come up: " + (work / "master.log").read_text()[-2000:])
            time.sleep(1)
        yield Cluster(master, worker_uis)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


# ------------------------------------------------------------------------- one Spark run (a child process)
