"""What the application does, with typed values at its edges: the layer the front ends stand on.

The command line (:mod:`preflog.cli`) and the web app (:mod:`preflog.serve`) parse their arguments or
routes, ask this layer, and render its answer; neither derives an answer of its own:

- :mod:`.pulkas`: the stored pulkas as a list (:class:`PulkaSummary`), filtered (:class:`PulkaFilter`),
  and the reports of the pulkas a filter passes (:class:`Report`), all through an :class:`Archive`. So
  ``preflog ls``, ``stats``, ``report``, the web app's list and its statistics page filter the same way
  and count the same deals; they list them in one order (in progress, then the most recent), and the
  start form offers the stored players (:class:`KnownPlayers`).
- :mod:`.table`: the live table (:class:`LiveTables`): start a pulka, where it stands
  (:class:`TableState`), enter a deal at paper level (:mod:`.entry`) or card by card (:mod:`.cards`),
  correct one, end the pulka; each write with the log's length its page saw. Its refusals are one
  :class:`TableRefused` with a :class:`Refusal` kind. The start form's rules are :mod:`.start`'s.
"""

from .pulkas import Archive
from .pulkas import KnownPlayers
from .pulkas import PulkaFilter
from .pulkas import PulkaSummary
from .pulkas import Report
from .table import LiveTables
from .table import Refusal
from .table import TableRefused
from .table import TableState

__all__ = ["Archive", "KnownPlayers", "LiveTables", "PulkaFilter", "PulkaSummary", "Refusal", "Report", "TableRefused",
           "TableState"]
