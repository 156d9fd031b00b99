"""pytest's configuration at the checkout's root: what ``pytest --doctest-modules preflog`` leaves out.

The module doctests run over the whole package (``python -m pytest --doctest-modules preflog``, and
tests/test_doctests.py in the normal run). A module that cannot be imported without an extra is not collected
where the extra is missing: :mod:`preflog.spark.job` imports pyspark (the ``spark`` extra).
"""

from __future__ import annotations

import importlib.util

collect_ignore: list[str] = [] if importlib.util.find_spec("pyspark") else ["preflog/spark/job.py"]
