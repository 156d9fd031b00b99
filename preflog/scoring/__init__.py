"""Scoring: score sheet, per-deal scoring for each family, and settlement."""
