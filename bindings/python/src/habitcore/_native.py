"""The raw layer: include/habitcore.h as ctypes declarations, and the library loader.

The declarations are _header.py, generated from the headers by bindings/python/generate.py:
every struct mirrors the header's layout field for field (tests/test_module.py compares
offsets and sizes with a C compiler's); every function gets its restype and argtypes.
Nothing above this module touches ctypes' loader.
"""
from __future__ import annotations

import ctypes
import os
from pathlib import Path

from ._header import *  # noqa: F401,F403 (the mirror: constants, structs, callback types)
from ._header import HC_ABI_VERSION, HC_DAY_NONE, HC_SYNC_EVIDENCE, SIGNATURES, i32

ABI_VERSION = HC_ABI_VERSION
"""The HC_ABI_VERSION this binding was generated for (habitcore 1.x)."""
SYNC_EVIDENCE = HC_SYNC_EVIDENCE
"""hc_sync_changes_v2's HC_SYNC_EVIDENCE."""

DAY_NONE = HC_DAY_NONE


def _candidates() -> list[str]:
    here = Path(__file__).resolve().parent
    beside = [str(here / name) for name in ("libhabitcore.so.1", "libhabitcore.so") if (here / name).exists()]
    env = os.environ.get("HABITCORE_LIBRARY")
    return beside + ([env] if env else []) + ["libhabitcore.so.1", "libhabitcore.so"]


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _file_of(lib: ctypes.CDLL, candidate: str) -> str:
    """The file the loader took for candidate (a bare name is looked up as the system does)."""
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        return candidate
    dladdr.restype = ctypes.c_int
    dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    info = _DlInfo()
    if dladdr(ctypes.cast(lib.hc_abi_version, ctypes.c_void_p), ctypes.byref(info)) and info.dli_fname:
        return os.fsdecode(info.dli_fname)
    return candidate


def load() -> tuple[ctypes.CDLL, str]:
    """Loads libhabitcore: beside this package, else $HABITCORE_LIBRARY, else the system's.

    Declares every function and checks hc_abi_version() before anything else."""
    tried = []
    for candidate in _candidates():
        try:
            lib = ctypes.CDLL(candidate)
        except OSError as error:
            tried.append(f"{candidate}: {error}")
            continue
        lib.hc_abi_version.restype = i32
        lib.hc_abi_version.argtypes = []
        abi = lib.hc_abi_version()
        if abi != ABI_VERSION:
            raise ImportError(f"{candidate} has habitcore ABI {abi}; this package needs ABI {ABI_VERSION}")
        for name, (restype, argtypes) in SIGNATURES.items():
            function = getattr(lib, name)
            function.restype = restype
            function.argtypes = argtypes
        return lib, _file_of(lib, candidate)
    raise ImportError("libhabitcore not found (set HABITCORE_LIBRARY to its path). Tried:\n  " + "\n  ".join(tried))


lib, path = load()
