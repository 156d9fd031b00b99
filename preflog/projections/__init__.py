"""Projections: flat Parquet tables (deals, player_deals, pulka_results) derived from replayed pulkas."""

from .build import DEALS_SCHEMA
from .build import PLAYER_DEALS_SCHEMA
from .build import PULKA_RESULTS_SCHEMA
from .build import SCHEMAS
from .build import project
from .build import project_many
from .facts import FactsError
from .facts import PulkaFacts
from .facts import resolve_spec
from .store import Lag
from .store import RefreshResult
from .store import check
from .store import events_version
from .store import lag
from .store import projections_dir
from .store import read_manifest
from .store import read_table
from .store import rebuild
from .store import refresh
from .store import segment_of
from .store import snapshot
from .store import table_dir
from .store import table_files

__all__ = [
    "DEALS_SCHEMA", "PLAYER_DEALS_SCHEMA", "PULKA_RESULTS_SCHEMA", "SCHEMAS", "FactsError", "PulkaFacts",
    "Lag", "RefreshResult", "check", "events_version", "lag", "project", "project_many", "projections_dir",
    "read_manifest", "read_table", "rebuild", "refresh", "resolve_spec", "segment_of", "snapshot", "table_dir",
    "table_files",
]
