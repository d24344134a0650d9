"""One BLAS thread per process, unless the user chose otherwise.

numpy's BLAS (OpenBLAS here) starts a pool of spinning threads on import, one per
core. gamenight's numpy work is small matrix products and element-wise passes
(the solvers, the odds), where the pool only spins: ``OPENBLAS_NUM_THREADS=1`` cut
``gamenight solve decathlon``'s CPU time by 23% (issue 29). The pool size is read
once, when numpy is first imported, so :func:`one_blas_thread` runs where a process
starts (the ``gamenight`` command, the server's ``python -m``), before any import
of numpy. A value the user set is kept. ``OMP_NUM_THREADS`` is left alone: the
Wurfeltod solver runs one thread per core by design.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

BLAS_POOLS = (
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def one_blas_thread(environ: MutableMapping[str, str] = os.environ) -> None:
    """Set every BLAS pool size that is not set already to 1.

    >>> env = {"MKL_NUM_THREADS": "4"}
    >>> one_blas_thread(env)
    >>> env["MKL_NUM_THREADS"], env["OPENBLAS_NUM_THREADS"]
    ('4', '1')
    """
    for name in BLAS_POOLS:
        environ.setdefault(name, "1")


def usable_cores() -> int:
    """The CPU cores this process may run on: its affinity mask, else the CPU count.

    >>> usable_cores() >= 1
    True
    """
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1
