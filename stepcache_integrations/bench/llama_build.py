"""How the embedded local backend is built, and the one command that rebuilds it.

llama-cpp-python compiles llama.cpp when it is installed. Its default build targets the
installing CPU (``-DGGML_NATIVE=ON``): on an Intel CPU with AMX inside a virtual machine every
completion of that build died with SIGSEGV in ``ggml_backend_amx_mul_mat``, and a build with
AVX-512 dies with SIGILL on a CPU without it. The README's commands therefore build it with
``PORTABLE_CMAKE_ARGS``: AVX2, FMA, F16C and BMI2, no AVX-512, no AMX, which every x86-64 CPU
since Intel Haswell (2013) and AMD Excavator / Zen (2015 / 2017) runs. pip keeps the first
wheel it built in its cache and reuses it whatever the flags, so every install and rebuild
command here passes ``--no-cache-dir``.

When the server dies on a signal, ``crash_advice`` says what it means and gives the exact
rebuild command for the interpreter that ran it.

Example:
    >>> describe_exit(-11)
    'was killed by SIGSEGV'
    >>> print(reinstall_command(python="/srv/app/.venv/bin/python", version="0.3.36"))
    ... # doctest: +NORMALIZE_WHITESPACE
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_BMI2=ON -DGGML_FMA=ON
    -DGGML_F16C=ON" /srv/app/.venv/bin/python -m pip install --force-reinstall --no-cache-dir
    --no-deps "llama-cpp-python==0.3.36"
"""

from __future__ import annotations

import importlib.metadata
import shlex
import signal
import sys

__all__ = [
    "LOCAL_INSTALL",
    "NATIVE_CMAKE_ARGS",
    "PORTABLE_CMAKE_ARGS",
    "crash_advice",
    "describe_exit",
    "installed_version",
    "reinstall_command",
]

# x86-64-v3 without MOVBE/LZCNT checks: ggml's "haswell" CPU variant. With GGML_NATIVE off
# ggml turns these on by default anyway; they are spelled out so the command says what it
# builds. AVX-512 and AMX stay off (their default without GGML_NATIVE).
PORTABLE_CMAKE_ARGS = (
    "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
)
# For a CPU without AVX2 (the portable build stops there with SIGILL): build for this CPU.
NATIVE_CMAKE_ARGS = "-DGGML_NATIVE=ON"
# How a checkout installs the local extra (the README's commands say the same).
LOCAL_INSTALL = f'CMAKE_ARGS="{PORTABLE_CMAKE_ARGS}" pip install --no-cache-dir -e ".[local]"'

DISTRIBUTION = "llama-cpp-python"
# Signals by which a process ends itself on a fault in its own code; any other signal came
# from outside (the out-of-memory killer, a user), and a rebuild would not help.
_FAULTS = frozenset({signal.SIGSEGV, signal.SIGILL, signal.SIGBUS, signal.SIGFPE, signal.SIGABRT})


def installed_version(python: str = sys.executable) -> str | None:
    """llama-cpp-python's version for ``python`` when that is this interpreter, else ``None``."""
    if python != sys.executable:
        return None
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None


def reinstall_command(
    cmake_args: str = PORTABLE_CMAKE_ARGS,
    *,
    python: str = sys.executable,
    version: str | None = None,
) -> str:
    """The shell command that rebuilds llama-cpp-python from source for ``python``.

    ``--no-cache-dir``: a wheel pip cached from an earlier build is not reused;
    ``--force-reinstall --no-deps``: the same version is rebuilt, nothing else is touched.
    """
    requirement = f"{DISTRIBUTION}=={version}" if version else DISTRIBUTION
    return (
        f'CMAKE_ARGS="{cmake_args}" {shlex.quote(python)} -m pip install --force-reinstall '
        f'--no-cache-dir --no-deps "{requirement}"'
    )


def describe_exit(returncode: int) -> str:
    """How a process ended, from ``Popen.returncode`` (negative: the signal that ended it)."""
    if returncode >= 0:
        return f"exited with code {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    return f"was killed by {name}"


def crash_advice(returncode: int, python: str = sys.executable) -> str | None:
    """What a server that ended with ``returncode`` should do next, with the exact command;
    ``None`` when a rebuild would not help (a normal exit, or a signal from outside)."""
    if returncode >= 0 or -returncode not in {int(s) for s in _FAULTS}:
        return None
    version = installed_version(python)
    if -returncode == signal.SIGILL:
        command = reinstall_command(NATIVE_CMAKE_ARGS, python=python, version=version)
        return (
            "llama-cpp-python was built with instructions this CPU does not have: "
            f"rebuild it for this CPU: {command}"
        )
    command = reinstall_command(python=python, version=version)
    return (
        "llama-cpp-python's build does not run on this machine (a build for the installing "
        "CPU crashed on Intel CPUs with AMX in a virtual machine, and pip reuses a wheel from "
        f"its cache whatever the flags): rebuild it with the portable flags: {command}"
    )
