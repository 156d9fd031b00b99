"""``python -m preflog``: the ``preflog`` command line."""

from preflog.cli.app import app

app(prog_name="preflog")
