"""Projections: flat Parquet tables (deals, player_deals, pulka_results) derived from replayed pulkas."""

from .build import DEALS_SCHEMA, PLAYER_DEALS_SCHEMA, PULKA_RESULTS_SCHEMA, SCHEMAS, project, project_many
from .facts import FactsError, PulkaFacts, resolve_spec
from .store import (
    RefreshResult,
    projections_dir,
    read_manifest,
    read_table,
    rebuild,
    refresh,
    segment_of,
    table_dir,
    table_files,
)

__all__ = [
    "DEALS_SCHEMA", "PLAYER_DEALS_SCHEMA", "PULKA_RESULTS_SCHEMA", "SCHEMAS", "FactsError", "PulkaFacts",
    "RefreshResult", "project", "project_many", "projections_dir", "read_manifest", "read_table", "rebuild",
    "refresh", "resolve_spec", "segment_of", "table_dir", "table_files",
]
