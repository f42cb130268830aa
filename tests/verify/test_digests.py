"""The inputs' SHA-256, hashed on a thread in steps (:mod:`analyzer.verify.digests`):
the same digests as hashlib's, however the thread is paused and resumed, and an
unreadable file refused by name when its digest is asked for."""

from __future__ import annotations

import hashlib
import random
import threading
import time
from pathlib import Path

import pytest

from analyzer.errors import AnalyzerError
from analyzer.verify import digests
from analyzer.verify.digests import FileDigests


def _files(tmp_path: Path) -> list[Path]:
    sizes = [0, 1, 6, 7, 8, 50, 1000]
    rng = random.Random(7)
    paths = []
    for i, size in enumerate(sizes):
        path = tmp_path / f"f{i}.bin"
        path.write_bytes(bytes(rng.randrange(256) for _ in range(size)))
        paths.append(path)
    return paths


def _nine_threads() -> list[str]:
    return [t.name for t in threading.enumerate() if t.name == "nine-digests"]


@pytest.mark.parametrize("buffer", [1, 7, 1 << 24])
def test_digests_are_hashlibs_however_the_thread_is_paused(
        tmp_path: Path, buffer: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Buffers of 1 and 7 bytes (files of 0 to 1,000 bytes cross them), and the thread
    paused and started again at random points, some files done by it, some by ``of``."""
    monkeypatch.setattr(digests, "_BUFFER", buffer)
    paths = _files(tmp_path)
    expected = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}
    rng = random.Random(buffer)
    for _ in range(5):
        hashing = FileDigests([str(p) for p in paths])
        for _ in range(rng.randrange(4)):
            hashing.start()
            time.sleep(rng.random() / 1000)
            hashing.pause()
            assert not _nine_threads()
        assert {str(p): hashing.of(str(p)) for p in paths} == expected
    assert FileDigests([str(paths[-1])]).of(str(paths[-1])) == expected[str(paths[-1])]


def test_a_thread_left_running_finishes_every_file(tmp_path: Path) -> None:
    paths = _files(tmp_path)
    hashing = FileDigests([str(p) for p in paths])
    hashing.start()
    deadline = time.monotonic() + 10
    while _nine_threads() and time.monotonic() < deadline:
        time.sleep(0.001)
    assert not _nine_threads()
    assert hashing.of(str(paths[3])) == hashlib.sha256(paths[3].read_bytes()).hexdigest()


def test_an_unreadable_file_is_refused_when_its_digest_is_asked(tmp_path: Path) -> None:
    """The file before it hashes; it raises one line naming it; the file after it is
    never opened (it would raise the same error)."""
    good, after = _files(tmp_path)[5:7]
    missing = tmp_path / "missing.csv"
    hashing = FileDigests([str(good), str(missing), str(after)])
    hashing.start()
    hashing.pause()
    assert hashing.of(str(good)) == hashlib.sha256(good.read_bytes()).hexdigest()
    with pytest.raises(AnalyzerError) as caught:
        hashing.of(str(missing))
    message = str(caught.value)
    assert "missing.csv" in message and "\n" not in message
    with pytest.raises(AnalyzerError):
        hashing.of(str(after))


def test_a_folder_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(AnalyzerError, match="not a regular file"):
        FileDigests([str(tmp_path)]).of(str(tmp_path))


def test_close_lets_go_of_a_file_half_hashed(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Closed mid-file (a check that raised): no file left open, no thread running."""
    if not Path("/proc/self/fd").is_dir():
        pytest.skip("counts open files through /proc")
    monkeypatch.setattr(digests, "_BUFFER", 1)
    path = _files(tmp_path)[-1]
    before = len(list(Path("/proc/self/fd").iterdir()))
    hashing = FileDigests([str(path)])
    hashing.start()
    time.sleep(0.001)
    hashing.close()
    assert not _nine_threads()
    assert len(list(Path("/proc/self/fd").iterdir())) == before
    assert hashing.of(str(path)) == hashlib.sha256(path.read_bytes()).hexdigest()
