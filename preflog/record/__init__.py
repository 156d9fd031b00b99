"""Human-writable game records ("запись пульки"), in the spirit of PGN / PBN / poker hand histories.

A text record is tag pairs for the pulka followed by deal blocks; a JSON form holds the
same tree. Reading is lenient (aliases, Russian and Unicode spellings, case, comments)
and every problem is a located :class:`RecordError`; writing is canonical, so
``write_text(read_text(x))`` reproduces canonical text and ``read_text(write_text(log))``
the same events. The format is documented in docs/record-format.md.
"""

from .api import RECORD_SUFFIXES
from .api import iter_records
from .api import read_any
from .api import read_file
from .api import read_file_records
from .api import read_json
from .api import read_json_records
from .api import read_records
from .api import read_text
from .api import record_files
from .api import write_file
from .api import write_json
from .api import write_json_obj
from .api import write_text
from .errors import RecordError
from .errors import RecordWriteError
from .reader import Record

__all__ = ["RECORD_SUFFIXES", "Record", "RecordError", "RecordWriteError", "iter_records", "read_any", "read_file",
           "read_file_records", "read_json", "read_json_records", "read_records", "read_text", "record_files",
           "write_file", "write_json", "write_json_obj", "write_text"]
