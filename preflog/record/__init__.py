"""record layer."""
