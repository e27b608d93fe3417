"""Which build of the engine this process runs: "compiled" (mypyc extension modules next to
the source, made by scripts/build_engine.py) or "interpreted" (the Python source).

HEXLOG_ENGINE=interpreted makes a process ignore the compiled modules (the comparison test runs
the two builds side by side that way); `stale()` lists compiled modules older than their source
(a build that would run old rules)."""

from __future__ import annotations

import importlib
import importlib.machinery
import re
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ENGINE = "services.rules.engine"
ENGINE_DIR = Path(__file__).resolve().parent / "engine"
# Each module is compiled on its own (mypyc's separate mode): `<module>.so` and the library
# `<module>__mypyc.so` beside it; the engine package's library is `engine__mypyc.so` in
# services/rules/. (One library for all, named inside services/rules/, failed its import
# check when tried: benchmarks/compiled.md, "What is left".)
_PACKAGE_LIB = ENGINE_DIR.parent / "engine__mypyc"
_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


# A module defining a msgspec Struct stays Python: mypyc drops the class keywords
# (`forbid_unknown_fields=True`, `frozen=True`) and turns annotations it cannot express
# (`Literal[...]`, `X | None`, `tuple[...]`) into `type`, so the Struct would accept and reject
# the wrong parameters. (Packages, `__init__.py`, stay Python too: scripts/build_engine.py.)
_STRUCT = re.compile(r"^class \w+\((msgspec\.)?Struct\b", re.MULTILINE)


def stays_python(path: Path) -> bool:
    """Whether this engine module is left out of the compiled build."""
    return path.name == "__init__.py" or bool(_STRUCT.search(path.read_text(encoding="utf-8")))


def native_sources() -> list[Path]:
    """The engine's modules written in C (`_hmac_draw.c`), part of the compiled build only."""
    return sorted(ENGINE_DIR.rglob("*.c"))


def compiled_files() -> list[Path]:
    """The compiled extension modules in the source tree, and their shared library."""
    return sorted([p for p in ENGINE_DIR.rglob("*") if p.name.endswith(_SUFFIXES)]
                  + [p for p in _PACKAGE_LIB.parent.glob(_PACKAGE_LIB.name + ".*")
                     if p.name.endswith(_SUFFIXES)])


def engine_build() -> str:
    """'compiled' when the engine's modules were loaded from extension modules."""
    name = f"{ENGINE}.state"
    module = sys.modules.get(name) or importlib.import_module(name)
    return "compiled" if str(module.__file__).endswith(_SUFFIXES) else "interpreted"


def stale() -> list[str]:
    """In a compiled tree: the source files newer than their compiled module, or without one
    (a module added or edited since the build). Empty when nothing is compiled."""
    sources: dict[Path, float] = {}
    built: dict[Path, float] = {}
    for path in ENGINE_DIR.rglob("*"):
        if path.suffix in (".py", ".c"):
            sources[path.with_suffix("")] = path.stat().st_mtime
        elif path.name.endswith(_SUFFIXES):
            # A module's build is its small `<module>.so` and its library `<module>__mypyc.so`:
            # an incremental build may remake only the library, so the newer of the two counts.
            module = path.parent / path.name.split(".")[0].removesuffix("__mypyc")
            built[module] = max(built.get(module, 0.0), path.stat().st_mtime)
    if not built:
        return []  # the usual case: nothing compiled, no source file read
    out: list[str] = []
    for p, t in sources.items():
        py = p.with_suffix(".py")
        if built.get(p, -1.0) >= t or (py.exists() and stays_python(py)):
            continue
        out.append(str(p.relative_to(ENGINE_DIR)) + (".py" if py.exists() else ".c"))
    return sorted(out)


class _SourceOnly(MetaPathFinder):
    """Finds the engine's modules in their .py files only (HEXLOG_ENGINE=interpreted)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != ENGINE and not fullname.startswith(ENGINE + "."):
            return None
        loaders = [(importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)]
        finder = importlib.machinery.FileFinder(
            str(ENGINE_DIR.parent if fullname == ENGINE else Path(path[0] if path else "")),
            *loaders,
        )
        spec = finder.find_spec(fullname)
        if spec is None and Path(finder.path, fullname.rpartition(".")[2] + ".c").exists():
            # A module written in C (_hmac_draw.c): the interpreted build runs its Python twin.
            raise ModuleNotFoundError(f"{fullname} is part of the compiled build only",
                                      name=fullname)
        return spec


def install_interpreted_finder() -> None:
    if not any(isinstance(f, _SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceOnly())

