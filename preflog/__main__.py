"""``python -m preflog``: the ``preflog`` command line."""

from preflog.cli.app import app

if __name__ == "__main__":  # not when a tool imports every module of the package
    app(prog_name="preflog")
