"""preflog: record, replay, audit and analyse games of preferans (преферанс)."""

__version__ = "0.1.0"
