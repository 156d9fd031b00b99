"""Bulk import of record files, on every core, in two jobs:

* :mod:`preflog.importer.prepare`, the files' side: read, validate, seal and audit each file, on worker
  processes for a big import (in parts for a big file), the results handed back in file order;
* :mod:`preflog.importer.session`, the parent's side: an :class:`ImportSession` decides ids and
  duplicates, commits to the store and refreshes the projections, so what is stored does not depend on
  the number of workers.

The names other modules use are re-exported here. A test that changes a module's setting (a threshold, a
function the workers call) changes it in the module that reads it.
"""

from __future__ import annotations

from .prepare import PARALLEL_MIN_BYTES as PARALLEL_MIN_BYTES
from .prepare import PART_BYTES as PART_BYTES
from .prepare import PRELOAD as PRELOAD
from .prepare import SPLIT_MIN_BYTES as SPLIT_MIN_BYTES
from .prepare import FileResult as FileResult
from .prepare import Part as Part
from .prepare import PartResult as PartResult
from .prepare import Prepared as Prepared
from .prepare import Unit as Unit
from .prepare import prepare_file as prepare_file
from .prepare import prepare_unit as prepare_unit
from .prepare import prepared_files as prepared_files
from .prepare import use_pool as use_pool
from .prepare import work as work
from .session import IMPORT_CHUNK as IMPORT_CHUNK
from .session import IMPORT_ROWS as IMPORT_ROWS
from .session import READING as READING
from .session import STORING as STORING
from .session import ImportCounts as ImportCounts
from .session import ImportItem as ImportItem
from .session import ImportSession as ImportSession
from .session import ImportTarget as ImportTarget
from .session import gather as gather
from .session import import_memory_pool as import_memory_pool
from .session import no_record_file as no_record_file
from .session import skipped_names as skipped_names
