"""Compile the rules engine (services/rules/engine/, every module under it) with mypyc, in place.

The typed Python source stays the one source of truth: mypyc turns the same modules into C
extensions (`<module>.cpython-*.so` next to each `<module>.py`; Python imports the extension
when both are there). `make` runs this after installing: the compiled build is the default
(2–3 minutes on 2 cores, once), and it falls back to the interpreted engine (removes any
compiled modules and exits 0) when there is no C compiler or mypyc, when the built engine does
not import and play, or when HEXLOG_COMPILED=0 asks for the Python source only.
benchmarks/compiled.md has what the build gains.

    python scripts/build_engine.py            # compile (or fall back)
    python scripts/build_engine.py --require  # compile or fail (CI's compiled-build job)
    python scripts/build_engine.py --clean    # back to the interpreted engine
    python scripts/build_engine.py --require --incremental  # while fixing the build: see below

--incremental reuses the previous build (build/mypyc and the extension modules in the tree):
only the modules whose generated C changed are compiled again, minutes less than a whole
build; and a build that fails its check is kept (not replaced by the source) to be looked at.

`services.rules.build` says which build a process runs and whether the compiled modules are
older than their source (then tests stop and ask for a rebuild: a stale build would test old
rules).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from services.rules.build import (  # noqa: E402
    ENGINE,
    ENGINE_DIR,
    compiled_files,
    native_sources,
    stays_python,
)

BUILD_DIR = ROOT / "build" / "mypyc"


def engine_sources() -> list[str]:
    """Every module under the engine, found afresh (scenarios added later are picked up)."""
    return sorted(str(p.relative_to(ROOT)) for p in ENGINE_DIR.rglob("*.py"))


def clean() -> int:
    removed = 0
    for path in compiled_files():
        path.unlink()
        removed += 1
    shutil.rmtree(BUILD_DIR, ignore_errors=True)
    return removed


def compiler() -> str | None:
    """The C compiler Python's build would call, if it is installed."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def native_extensions() -> list[Any]:
    """The engine's few modules written in C (each `<name>.c` with its `<name>.pyi`): the
    hottest paths only, where measurement showed the calls around the work cost as much as
    the work (benchmarks/compiled.md). Each has a Python reference the interpreted build runs."""
    from setuptools import Extension  # type: ignore[import-untyped]

    return [Extension(f"{ENGINE}.{'.'.join(c.relative_to(ENGINE_DIR).with_suffix('').parts)}",
                      [str(c.relative_to(ROOT))], extra_compile_args=["-O3"])
            for c in native_sources()]


def build(parallel: int) -> None:
    os.chdir(ROOT)  # mypyc and the extension names work with paths relative to the root
    for path in compiled_files():  # an earlier build's modules that now stay Python
        source = path.parent / (path.name.split(".")[0].removesuffix("__mypyc") + ".py")
        if source.exists() and stays_python(source):
            path.unlink()
    notes = io.StringIO()  # mypyc's notes (a generator compiled as a list, …): shown on failure
    try:
        with contextlib.redirect_stdout(notes):
            extensions = _mypycify()
    except BaseException:
        print(notes.getvalue(), end="")
        raise
    _compile(extensions, parallel)


def _mypycify() -> list[Any]:
    from mypyc.build import mypycify

    return mypycify(
        engine_sources(),  # mypy options: pyproject.toml (the cwd)
        # Packages stay Python: a compiled __init__ imports its submodules before the package
        # has a __path__, and a submodule's library then re-imports the package (a cycle).
        # Modules defining msgspec Structs stay Python too (services/rules/build.py).
        only_compile_paths=[p for p in engine_sources() if not stays_python(ROOT / p)],
        opt_level=os.environ.get("HEXLOG_COMPILE_OPT", "3"),
        separate=True,  # one library per module: see services/rules/build.py
        target_dir=str(BUILD_DIR),
    )


def _compile(extensions: list[Any], parallel: int) -> None:
    from setuptools import Distribution  # type: ignore[import-untyped]

    dist = Distribution({"name": "hexlog-engine", "ext_modules": [*extensions, *native_extensions()]})
    cmd = dist.get_command_obj("build_ext")
    cmd.inplace = True
    cmd.build_temp = str(BUILD_DIR / "temp")
    cmd.parallel = parallel
    sources = sum(len(ext.sources) for ext in dist.ext_modules)
    done = threading.Event()
    ticker = threading.Thread(target=_progress, args=(sources, done), daemon=True)
    ticker.start()
    try:
        dist.run_command("build_ext")
    finally:
        done.set()
        ticker.join()


def _progress(sources: int, done: threading.Event, every: float = 20.0) -> None:
    """A line now and then while the C compiler runs (its own output is quiet): how many of
    the generated C files have their object file (an incremental build starts with most), and
    how long the rest should take at the rate seen so far on this machine."""
    temp = BUILD_DIR / "temp"

    def objects() -> int:
        return min(sources, sum(1 for _ in temp.rglob("*.o")))

    start, first = time.monotonic(), objects()
    while not done.wait(every):
        now = objects()
        made, elapsed = now - first, time.monotonic() - start
        left = f", about {_minutes((sources - now) * elapsed / made)} left" if made else ""
        print(f"engine: compiling C, {now} of {sources} files{left}", flush=True)


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def expected_build() -> str:
    """What the build should take here: 2-3 minutes on 2 idle cores (measured), longer in
    proportion to how busy the cores are (the load average per core beyond the build's own)."""
    cores = os.cpu_count() or 1
    busy = os.getloadavg()[0] / cores
    low, high = 140 * 2 / min(cores, 2), 180 * 2 / min(cores, 2)
    factor = 1 + max(0.0, busy)
    span = (f"{low * factor / 60:.0f} to {high * factor / 60:.0f} min" if low * factor >= 90
            else f"{_minutes(low * factor)} to {_minutes(high * factor)}")
    return f"about {span} here ({cores} cores, load {os.getloadavg()[0]:.1f})"


# The built engine must import and play a game before it replaces the Python source.
_CHECK = """
from services.cli.bench import bench_engine
from services.rules.build import engine_build
assert engine_build() == "compiled", engine_build()
bench_engine(1, progress=False)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--require", action="store_true",
                        help="fail instead of falling back to the interpreted engine")
    parser.add_argument("--incremental", action="store_true",
                        help="reuse the previous build; keep a build that fails its check")
    parser.add_argument("--parallel", type=int, default=os.cpu_count() or 1,
                        help="C compiler processes (default: the CPU count)")
    args = parser.parse_args()
    if args.clean:
        print(f"engine: interpreted ({clean()} compiled modules removed)")
        return 0
    reason = None
    if os.environ.get("HEXLOG_COMPILED", "1") == "0" and not args.require:
        reason = "HEXLOG_COMPILED=0"
    elif compiler() is None:
        reason = "no C compiler"
    else:
        try:
            import mypyc  # noqa: F401
        except ImportError:
            reason = "mypyc (part of mypy) is not installed"
    if reason is not None:
        clean()
        print(f"engine: interpreted ({reason})")
        return 1 if args.require else 0
    if not args.incremental:
        clean()
    start = time.perf_counter()
    print(f"engine: compiling with mypyc, once: {expected_build()}; progress below "
          "(HEXLOG_COMPILED=0 make skips it and runs the Python source) ...", flush=True)
    try:
        build(args.parallel)
    except (Exception, SystemExit) as e:  # a compiler error: keep the interpreted engine
        if not args.incremental:
            clean()
        print(f"engine: interpreted (the compiled build failed: {e})", file=sys.stderr)
        return 1 if args.require else 0
    # Every module was just made from the source as it is now, but an incremental build
    # leaves a module whose C did not change (an edited comment) older than its source, which
    # `services.rules.build.stale` would then call out of date.
    for path in compiled_files():
        os.utime(path)
    check = subprocess.run([sys.executable, "-c", _CHECK], cwd=ROOT, capture_output=True,
                           text=True)
    if check.returncode != 0:
        if args.incremental:
            print(check.stderr, file=sys.stderr)
        else:
            clean()
        last = (check.stderr.strip().splitlines() or ["?"])[-1]
        print(f"engine: interpreted (the compiled build does not run: {last})", file=sys.stderr)
        return 1 if args.require else 0
    print(f"engine: compiled ({len(compiled_files())} extension modules "
          f"in {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
