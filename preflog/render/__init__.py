"""Presentation: the paper score sheet as SVG/HTML."""
