"""Build hook: a wheel carries the shipped records (``data/``) and JSON Schemas (``schemas/``) as
package data under ``preflog/_shipped/``, so ``preflog demo`` works outside a checkout. Everything
else is in pyproject.toml."""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import Extension
from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = {"data": ("*.pref", "*.json"), "schemas": ("*.json",)}


class BuildWithShipped(build_py):
    def run(self) -> None:
        super().run()
        for folder, patterns in SHIPPED.items():
            for pattern in patterns:
                for src in sorted((ROOT / folder).rglob(pattern)):
                    dest = Path(self.build_lib) / "preflog" / "_shipped" / src.relative_to(ROOT)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(src, dest)


# The compiled double-dummy search (plain CPython C API, no dependency). Optional: where it cannot be
# compiled the package still installs and preflog.solver runs its pure-Python search (NATIVE is False).
SOLVER_EXTENSIONS = [
    Extension("preflog.solver._dd", ["preflog/solver/_dd.c"], extra_compile_args=["-O3"], optional=True),
]


setup(cmdclass={"build_py": BuildWithShipped}, ext_modules=SOLVER_EXTENSIONS)
