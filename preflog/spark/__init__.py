"""preflog on Apache Spark: the audit, projections and reports of a Delta event table as a Spark job.

Optional (``pip install "preflog[spark]"``). :mod:`preflog.spark.tables` (the per-pulka worker function
and the table schemas), :mod:`preflog.spark.plan` (the table version read, the file groups of the grouped
plan, the workers' pyarrow read, ``OUT/_preflog.json``) and :mod:`preflog.spark.sql` (the report SQL as
Spark SQL) import no pyspark; :mod:`preflog.spark.job` does, and is imported only by the commands that run
a job (``preflog spark audit|project|report|analyze``). See docs/spark.md.
"""

import warnings

PANDAS_NOTE = "PySpark does not yet fully support pandas"
"""pyspark's FutureWarning, at import and at each Arrow function, under pandas 3. preflog's Spark path hands
its workers Arrow batches (``mapInArrow``/``applyInArrow``), and tests/spark compares every table it writes
with the single-machine path's under the pandas installed; so the note is filtered here, before
:mod:`preflog.spark.job` imports pyspark, and (``PYTHONWARNINGS``, :func:`preflog.spark.job.session`) in the
Python workers a driver starts."""
warnings.filterwarnings("ignore", message=PANDAS_NOTE, category=FutureWarning)
