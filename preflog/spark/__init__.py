"""preflog on Apache Spark: the audit, projections and reports of a Delta event table as a Spark job.

Optional (``pip install "preflog[spark]"``). :mod:`preflog.spark.tables` (the per-pulka worker function
and the table schemas) and :mod:`preflog.spark.sql` (the report SQL as Spark SQL) import no pyspark;
:mod:`preflog.spark.job` does, and is imported only by the commands that run a job
(``preflog spark audit|project|report``). See docs/spark.md.
"""
