"""What the application does, with typed values at its edges: the layer the front ends stand on.

The command line (:mod:`preflog.cli`) and the web app (:mod:`preflog.serve`) parse their arguments or
routes, ask this layer, and render its answer; neither derives an answer of its own. So ``preflog ls``,
``preflog stats``, ``preflog report``, the web app's list and its statistics page filter the same way
and count the same deals (:mod:`.pulkas`).
"""

from .pulkas import Archive
from .pulkas import PulkaFilter
from .pulkas import PulkaSummary
from .pulkas import Report

__all__ = ["Archive", "PulkaFilter", "PulkaSummary", "Report"]
