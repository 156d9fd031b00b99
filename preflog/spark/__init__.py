"""preflog on Apache Spark: the audit, projections and reports of a Delta event table as a Spark job.

Optional (``pip install "preflog[spark]"``). :mod:`preflog.spark.tables` (the per-pulka worker function
and the table schemas), :mod:`preflog.spark.plan` (the table version read, the file groups of the grouped
plan, the workers' pyarrow read, ``OUT/_preflog.json``) and :mod:`preflog.spark.sql` (the report SQL as
Spark SQL) import no pyspark; :mod:`preflog.spark.job` does, and is imported only by the commands that run
a job (``preflog spark audit|project|report|analyze``). See docs/spark.md.
"""
