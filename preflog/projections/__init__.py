"""projections layer."""
