"""What ships with preflog besides code: the record files under ``data/`` (the demo data set and the
seed examples) and the JSON Schemas under ``schemas/``.

In a checkout (an editable install) they are the top-level folders of the repository; a built wheel
carries copies in ``preflog/_shipped/`` (setup.py copies them at build time), so ``preflog demo``
works after a plain ``pip install`` outside any checkout.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The folder ``name`` (``"data"`` or ``"schemas"``): the wheel's copy when there is one, else
    the checkout's top-level folder.

    >>> (shipped("data") / "demo").is_dir() and (shipped("schemas") / "record.schema.json").is_file()
    True
    """
    if name not in ("data", "schemas"):
        raise ValueError(f"nothing named {name!r} ships with preflog (data, schemas)")
    packaged = _PACKAGE / "_shipped" / name
    return packaged if packaged.is_dir() else _PACKAGE.parent / name
