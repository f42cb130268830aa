"""``make bench``: speed figures, each printed with a ratio against a baseline measured in
the same run. Kept beside the package: the library never imports it.
"""

import subprocess
import sys
from pathlib import Path

__all__ = ["byte_compile"]


def byte_compile() -> None:
    """Byte-compile the package, as a regular install does, before timing new processes:
    this machine sets PYTHONDONTWRITEBYTECODE, so without it every run would compile the
    package's modules again (0.1-0.2 s of each)."""
    package = Path(__file__).resolve().parent.parent / "analyzer"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(package)],
                   capture_output=True, check=False)
