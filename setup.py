"""Build hooks: a wheel carries the shipped records (``data/``) and JSON Schemas (``schemas/``) as
package data under ``preflog/_shipped/``, so ``preflog demo`` works outside a checkout; the replay/audit
kernel is compiled with mypyc (see the block below). Everything else is in pyproject.toml."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension
from setuptools import setup
from setuptools.command.build_ext import build_ext
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

# The compiled scanner of the text record reader (preflog/record/_scan.c, plain C API); optional the same
# way: without it preflog.record reads in pure Python (preflog/record/scanner.py).
SOLVER_EXTENSIONS.append(Extension("preflog.record._scan", ["preflog/record/_scan.c"], extra_compile_args=["-O3"],
                                   optional=True))

# The compiled hash chain of bulk sealing (preflog/store/_chain.c, plain C API); optional the same way:
# without it preflog.store.sealed seals in pure Python (preflog/store/chain.py is the reference).
SOLVER_EXTENSIONS.append(Extension("preflog.store._chain", ["preflog/store/_chain.c"], extra_compile_args=["-O3"],
                                   optional=True))

# The compiled column reader of the store's bulk read (preflog/store/_read.c, plain C API); optional the same
# way: without it preflog.store.delta_read turns integer columns into lists with NumPy's tolist.
SOLVER_EXTENSIONS.append(Extension("preflog.store._read", ["preflog/store/_read.c"], extra_compile_args=["-O3"],
                                   optional=True))

# The compiled card loop of the trick-play kernel (preflog/engine/_tricks.c, plain C API); optional the same
# way, and used with the compiled kernel only: without either, TrickPlay.play_cards runs its .py loop.
SOLVER_EXTENSIONS.append(Extension("preflog.engine._tricks", ["preflog/engine/_tricks.c"],
                                   depends=["preflog/engine/_tricks_layout.h"],  # (generated: cardloop_layout.py)
                                   extra_compile_args=["-O3"], optional=True))

SOLVER_NAMES = {ext.name for ext in SOLVER_EXTENSIONS}


# --- the compiled kernel (issue 16) ------------------------------------------------------------------
# mypyc compiles the typed kernel modules listed in preflog/_native.py (MODULES) into one group,
# preflog.kernel__mypyc, plus a small extension per module. The .py files stay the source and the pure
# reference; the build writes preflog/_native_manifest.json with each source's SHA-256, and
# preflog/_native.py loads the compiled modules only when every source still matches (an edited
# source in an editable checkout runs pure, with a warning, until `pip install -e .` rebuilds).
# PREFLOG_PURE_BUILD=1 builds without compiling (the package then always runs pure). A compile that
# fails leaves a working pure install: the extensions are optional, and the manifest is only written
# when every extension was built.
def _native_modules() -> tuple[str, ...]:
    text = (ROOT / "preflog" / "_native.py").read_text(encoding="utf-8")
    block = text.split("MODULES: tuple[str, ...] = (", 1)[1].split(")", 1)[0]
    return tuple(line.strip().strip(",").strip('"') for line in block.splitlines() if line.strip())


NATIVE_MODULES = _native_modules()


def _source(module: str) -> Path:
    return ROOT.joinpath(*module.split(".")).with_suffix(".py")


def _native_extensions() -> list[Any]:
    if os.environ.get("PREFLOG_PURE_BUILD", "") not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # mypy is in [build-system].requires; a bare `setup.py` run without it builds pure
        print("preflog: mypyc not found, building the pure-Python kernel only", file=sys.stderr)
        return []
    cwd = os.getcwd()
    os.chdir(ROOT)   # mypyc names modules by their paths relative to the working folder
    try:
        # Only the kernel's own modules must type-check here: pip's build environment holds mypy alone,
        # not the runtime dependencies (duckdb, filelock, ...) that other preflog modules import.
        flags = ["--follow-imports=silent", "--ignore-missing-imports"]
        exts = mypycify(flags + [str(_source(m).relative_to(ROOT)) for m in NATIVE_MODULES], opt_level="3",
                        group_name="preflog.kernel", verbose=False)
    finally:
        os.chdir(cwd)
    for ext in exts:
        ext.optional = True
    return list(exts)


class BuildKernel(build_ext):
    """Build the kernel's extensions, then write the manifest of the sources they came from."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        kernel = [ext for ext in self.extensions if ext.name not in SOLVER_NAMES]
        if not kernel:
            return
        built = [Path(self.get_ext_fullpath(ext.name)) for ext in kernel]
        if not all(p.is_file() for p in built):
            print("preflog: the compiled kernel did not build; the package runs the pure-Python kernel",
                  file=sys.stderr)
            return
        manifest = json.dumps({m: hashlib.sha256(_source(m).read_bytes()).hexdigest() for m in NATIVE_MODULES},
                              indent=1, sort_keys=True)
        targets = [Path(self.build_lib) / "preflog"]
        if self.inplace or getattr(self, "editable_mode", False):
            targets.append(ROOT / "preflog")
        for folder in targets:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "_native_manifest.json").write_text(manifest + "\n", encoding="utf-8")
# --- end of the compiled kernel block ----------------------------------------------------------------


setup(cmdclass={"build_py": BuildWithShipped, "build_ext": BuildKernel},
      ext_modules=SOLVER_EXTENSIONS + _native_extensions())
