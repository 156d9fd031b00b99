"""The entry script for ``spark-submit``: ``preflog spark …`` run as a Spark application.

Where jobs must go through ``spark-submit`` (a cluster's gateway, YARN cluster mode, Kubernetes), give it
this file with the arguments of ``preflog spark`` (``preflog spark entry-script`` prints its path)::

    spark-submit --master spark://HOST:7077 --conf spark.executor.cores=1 \\
        "$(preflog spark entry-script)" audit OUT --store /shared/preflog-store

The job then takes its master and settings from ``spark-submit`` (``--master`` and ``--conf`` given after
the script are added, as with ``preflog spark``); the exit status is the command's: 0 clean, 1 findings,
2 the job could not run.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    from preflog.cli.app import main as cli

    sys.argv = ["preflog", "spark", *(sys.argv[1:] if argv is None else argv)]
    cli()


if __name__ == "__main__":
    main()
