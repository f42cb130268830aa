"""Faults and hostile paths, not just bad content: no file written outside its folder, no
input overwritten, no file cut short where a good one was, interrupted runs repaired."""

from __future__ import annotations

import errno
import gzip
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

import analyzer.errors as errors
import analyzer.inputs as inputs
import analyzer.outputs as outputs
import analyzer.present.tables.folder as folder_module
from analyzer.errors import AnalyzerError, is_out_of_memory
from analyzer.outputs import is_temporary
from analyzer.present.tables.folder import MANIFEST, compare_tables, write_tables
from analyzer.present.tables.publication import Publication, Section
from tests.hostile.test_fuzz import assert_clean, run

ROOT = Path(__file__).resolve().parents[2]
PROFILE = (ROOT / "analyzer" / "profiles" / "punto-banco.toml").read_text(encoding="utf-8")


def _profile(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "rules.toml"
    path.write_text(PROFILE.replace('name = "punto-banco"', f"name = {name}"),
                    encoding="utf-8")
    return path


# -- output names made from sanitised parts -------------------------------------------------
@pytest.mark.parametrize(("name", "message"), [
    ('"../victim/x"', "is not an identifier"),
    ('"/tmp/abs"', "is not an identifier"),
    ('"a\\u0000b"', "is not an identifier"),
    ('"' + "n" * 300 + '"', "at most 64 characters"),
    ('"two words"', "is not an identifier"),
    ('".hidden"', "is not an identifier"),
])
def test_a_profile_name_that_is_no_identifier_is_one_line(tmp_path: Path, name: str,
                                                          message: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "x-8-decks.html").write_text("precious")
    code, output = run(["par", "--profile", str(_profile(tmp_path, name)),
                        "--out", str(tmp_path / "out"), "--format", "html"])
    assert_clean(code, output)
    assert code == 2 and message in output and "rules.toml: name:" in output
    assert (victim / "x-8-decks.html").read_text() == "precious"
    assert not (tmp_path / "out").exists()


def test_par_refuses_a_file_of_its_folder_that_links_outside(tmp_path: Path) -> None:
    outside = tmp_path / "outside.html"
    outside.write_text("precious")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "punto-banco-8-decks.html").symlink_to(outside)
    code, output = run(["par", "--profile", "punto-banco", "--out", str(folder),
                        "--format", "html"])
    assert_clean(code, output)
    assert code == 2 and "resolves outside" in output
    assert outside.read_text() == "precious"


# -- no output is an input ------------------------------------------------------------------
CORPUS = Path(__file__).resolve().parent / "corpus"


def _inputs(tmp_path: Path) -> dict[str, Path]:
    log = tmp_path / "log.csv"
    log.write_bytes((CORPUS / "one-deck-shoe.csv").read_bytes())
    rules = tmp_path / "rules.toml"
    rules.write_text(PROFILE, encoding="utf-8")
    choice = tmp_path / "choice.toml"
    choice.write_bytes((ROOT / "analyzer" / "profiles" / "lucky9-home.toml").read_bytes())
    (tmp_path / "linked.csv").hardlink_to(log)
    return {"log": log, "rules": rules, "choice": choice, "linked": tmp_path / "linked.csv"}


@pytest.mark.parametrize(("args", "victim", "option"), [
    (["verify", "{log}", "--decks", "1", "--partial-out", "{log}"], "log", "--partial-out"),
    (["verify", "{log}", "--decks", "1", "--junit", "{log}"], "log", "--junit"),
    (["verify", "{log}", "--decks", "1", "--junit", "{linked}"], "log", "--junit"),
    (["verify", "{log}", "--profile", "{rules}", "--junit", "{rules}"], "rules", "--junit"),
    (["simulate", "--profile", "{rules}", "--out", "{rules}"], "rules", "--out"),
    (["eor", "--profile", "{rules}", "--samples", "0", "--plot", "{rules}"], "rules", "--plot"),
    (["shoe", "--profile", "{rules}", "--shoes", "1", "--plot", "{rules}"], "rules", "--plot"),
    (["solve", "--profile", "{choice}", "--save-banker", "{choice}"], "choice",
     "--save-banker"),
    (["game", "--profile", "{choice}", "--export", "{choice}"], "choice", "--export"),
])
def test_an_output_that_is_an_input_is_refused(tmp_path: Path, args: list[str], victim: str,
                                               option: str) -> None:
    files = _inputs(tmp_path)
    before = files[victim].read_bytes()
    code, output = run([a.format(**files) for a in args])
    assert_clean(code, output)
    assert code == 2 and f"{option} would overwrite the input" in output, output
    assert files[victim].read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["log.csv", "rules.toml", "choice.toml", "linked.csv"])


def test_two_outputs_naming_one_file_are_refused(tmp_path: Path) -> None:
    files = _inputs(tmp_path)
    out = tmp_path / "out.json"
    code, output = run(["verify", str(files["log"]), "--decks", "1", "--junit", str(out),
                        "--partial-out", str(out)])
    assert code == 2 and "--partial-out would overwrite the file of --junit" in output
    assert not out.exists()


def test_par_refuses_to_write_over_its_profile_by_a_hard_link(tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text(PROFILE, encoding="utf-8")
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "punto-banco-8-decks.md").hardlink_to(rules)
    code, output = run(["par", "--profile", str(rules), "--out", str(folder),
                        "--format", "md"])
    assert code == 2 and "--out would overwrite the input" in output
    assert rules.read_text(encoding="utf-8") == PROFILE


# -- one writer: whole files or none ----------------------------------------------------------
def _disk_full(monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(outputs.os, "fsync", full)


@pytest.mark.parametrize(("args", "target"), [
    (["verify", "{log}", "--decks", "1", "--jobs", "1", "--partial-out", "{out}"], "out"),
    (["verify", "{log}", "--decks", "1", "--jobs", "1", "--junit", "{out}"], "out"),
    (["simulate", "--decks", "1", "--out", "{out}"], "out"),
    (["solve", "--profile", "{choice}", "--decks", "1", "--save-player", "{out}"], "out"),
])
def test_a_full_disk_leaves_the_earlier_file_and_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], target: str) -> None:
    files = {**_inputs(tmp_path), "out": tmp_path / "earlier.out"}
    files["out"].write_text("the earlier good file")
    _disk_full(monkeypatch)
    code, output = run([a.format(**files) for a in args])
    assert code == 2 and output.strip().endswith(
        f"nine: error: {files['out']}: cannot write (no space left on device); nothing was "
        "written"), output
    assert files["out"].read_text() == "the earlier good file"
    assert not [p.name for p in tmp_path.iterdir() if is_temporary(p.name)]


# -- nine tables: interrupted runs repaired, hand edits kept --------------------------------
def _publication(files: dict[str, bytes], complete: bool = True) -> Publication:
    return Publication(files=dict(files), sections=[Section("formulas", "formulas", "", "")],
                       owner=dict.fromkeys(files, "formulas"), complete=complete)


OLD = _publication({"a.md": b"old a\n", "b.md": b"old b\n"})
NEW = _publication({"a.md": b"new a\n", "b.md": b"new b\n"})


@pytest.mark.parametrize("leftover", ["..nine-tables-manifest.0a1b2c3d4e5f.nine-tmp",
                                      "..nine-tables-manifest.k2j_x9q1.tmp"])
def test_a_run_killed_in_its_first_manifest_is_repaired(tmp_path: Path, leftover: str) -> None:
    (tmp_path / leftover).write_bytes(b"# nine-analyzer tables manif")  # cut short by a kill
    assert compare_tables(NEW, tmp_path)[-1] == f"leftover temporary: {leftover}"
    assert write_tables(NEW, tmp_path) == (2, 0)
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.md", "b.md"]
    assert compare_tables(NEW, tmp_path) == []


def test_a_run_killed_mid_rewrite_is_repaired(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    write_tables(OLD, tmp_path)
    real = folder_module.write_file

    def killed(path: Path, content: bytes) -> None:
        if path.name == "b.md":  # SIGKILL between two files: the second is still old,
            (path.parent / ".b.md.5e5e5e5e5e5e.nine-tmp").write_bytes(b"new")  # its temp left
            raise KeyboardInterrupt
        real(path, content)

    monkeypatch.setattr(folder_module, "write_file", killed)
    with pytest.raises(KeyboardInterrupt):
        write_tables(NEW, tmp_path)
    monkeypatch.setattr(folder_module, "write_file", real)
    assert (tmp_path / "a.md").read_bytes() == b"new a\n"
    assert (tmp_path / "b.md").read_bytes() == b"old b\n"
    assert compare_tables(NEW, tmp_path) == [
        "stale: b.md", "leftover temporary: .b.md.5e5e5e5e5e5e.nine-tmp"]
    assert write_tables(NEW, tmp_path) == (1, 0)  # not refused as edited by hand
    assert compare_tables(NEW, tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.md", "b.md"]


def test_a_file_edited_by_hand_is_kept_unless_forced(tmp_path: Path) -> None:
    write_tables(OLD, tmp_path)
    (tmp_path / "b.md").write_bytes(b"my correction\n")
    assert "edited by hand: b.md" in compare_tables(NEW, tmp_path)
    with pytest.raises(AnalyzerError, match=r"b.md: edited since nine tables wrote it"):
        write_tables(NEW, tmp_path)
    assert (tmp_path / "b.md").read_bytes() == b"my correction\n"
    assert (tmp_path / "a.md").read_bytes() == b"old a\n"  # nothing was written
    code, output = run(["tables", "--out", str(tmp_path), "--section", "formulas"])
    assert_clean(code, output)
    assert code == 2 and "b.md: edited since nine tables wrote it" in output
    assert write_tables(NEW, tmp_path, force=True) == (2, 0)
    assert compare_tables(NEW, tmp_path) == []


# -- a complete shoe is marked; a cut one is never counted whole ------------------------------
def _simulated(tmp_path: Path, fmt: str) -> Path:
    path = tmp_path / f"sim.{fmt}"
    code, output = run(["simulate", "--decks", "1", "--shoes", "3", "--seed", "5",
                        "--out", str(path)])
    assert code == 0, output
    return path


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
@pytest.mark.parametrize("path_kind", ["columns", "records"])
def test_a_log_cut_inside_its_last_shoe_counts_it_cut(tmp_path: Path, fmt: str,
                                                      path_kind: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    if path_kind == "records":
        monkeypatch.setenv("NINE_VERIFY_PATH", "records")
    log = _simulated(tmp_path, fmt)
    code, output = run(["verify", str(log), "--decks", "1", "--format", "json"])
    report = json.loads(output)
    assert (report["shoes"], report["whole_shoes"], report["cut_shoes"]) == (3, 3, 0)
    lines = log.read_text(encoding="utf-8").splitlines()
    cut = tmp_path / f"cut.{fmt}"
    cut.write_text("\n".join(lines[:-3]) + "\n", encoding="utf-8")  # killed mid-shoe
    code, output = run(["verify", str(cut), "--decks", "1", "--format", "json"])
    report = json.loads(output)
    assert (report["shoes"], report["whole_shoes"], report["cut_shoes"]) == (3, 2, 1)
    assert any("1 shoe(s) have no end in the logs" in note for note in report["notes"])
    code, output = run(["verify", str(cut), "--decks", "1"])
    assert "3 shoes (2 whole, 1 cut short)" in output



# -- nothing counted twice in disguise ---------------------------------------------------------
def _disguised(tmp_path: Path) -> dict[str, Path]:
    """An 8-deck log in CSV and JSON Lines (one deal), and copies of it in other clothes."""
    files = {}
    for fmt in ("csv", "jsonl"):
        files[fmt] = tmp_path / f"log.{fmt}"
        code, output = run(["simulate", "--shoes", "2", "--seed", "3", "--out",
                            str(files[fmt])])
        assert code == 0, output
    rows = files["csv"].read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    keep = [i for i, name in enumerate(header) if name not in ("shoe", "hand", "burn",
                                                                "cards_left")]
    bare = [",".join(row.split(",")[i] for i in keep) for row in rows]
    files["bare"] = tmp_path / "bare.csv"  # no shoe columns
    files["bare"].write_text("\n".join(bare) + "\n", encoding="utf-8")
    files["crlf"] = tmp_path / "crlf.csv"  # ... and CRLF line ends
    files["crlf"].write_bytes(("\r\n".join(bare) + "\r\n").encode())
    files["records"] = tmp_path / "no-shoe-records.jsonl"  # no shoe records
    files["records"].write_text("".join(
        line for line in files["jsonl"].read_text(encoding="utf-8").splitlines(True)
        if '"type"' not in line), encoding="utf-8")
    files["fragment"] = tmp_path / "fragment.csv"  # ten hands from inside the first shoe
    files["fragment"].write_text("\n".join([rows[0], *rows[21:31]]) + "\n",
                                 encoding="utf-8")
    return files


@pytest.mark.parametrize(("first", "second"), [
    ("bare", "crlf"), ("jsonl", "records"), ("csv", "fragment"), ("partial", "crlf"),
    ("partial", "records")])
def test_the_same_hands_in_other_clothes_are_refused(tmp_path: Path, first: str,
                                                     second: str) -> None:
    files = _disguised(tmp_path)
    files["partial"] = tmp_path / "saved.json"
    code, output = run(["verify", str(files["csv"]), "--partial-out", str(files["partial"])])
    assert code == 0, output
    code, output = run(["verify", str(files[first]), str(files[second])])
    assert_clean(code, output)
    assert code == 2 and f"{files[first]} and {files[second]} hold the same hands (a run of " \
        "4 hands dealt card for card alike, however each file lays them out)" in output, output


def test_other_hands_beside_a_log_are_not_taken_for_it(tmp_path: Path) -> None:
    files = _disguised(tmp_path)
    other = tmp_path / "other.csv"
    code, output = run(["simulate", "--shoes", "2", "--seed", "4", "--out", str(other)])
    assert code == 0, output
    code, output = run(["verify", str(files["bare"]), str(other), "--format", "json"])
    assert code == 0 and len(json.loads(output)["files"]) == 2, output


# -- signals: real ones, to real processes ----------------------------------------------------
POOL_SCRIPT = """
import os, sys, time
from analyzer.interrupts import EXIT_TERMINATED, Terminated, stop_on_terminate
from analyzer.processes import worker_pool
try:
    with stop_on_terminate(), worker_pool(2) as pool:
        futures = [pool.submit(time.sleep, 60) for _ in range(2)]
        while len(pool._processes) < 2:
            time.sleep(0.01)
        time.sleep(0.2)  # the workers run their initializer
        print(" ".join(map(str, pool._processes)), flush=True)
        for future in futures:
            future.result()
except Terminated:
    sys.exit(EXIT_TERMINATED)
"""


def _alive(pid: int) -> bool:
    """Is ``pid`` a running process (not gone, not a zombie)?"""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stream:
            return stream.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
@pytest.mark.parametrize(("sent", "code"), [(signal.SIGTERM, 143), (signal.SIGKILL, -9)])
def test_workers_die_with_their_parent(sent: signal.Signals, code: int) -> None:
    parent = subprocess.Popen([sys.executable, "-c", POOL_SCRIPT], stdout=subprocess.PIPE,
                              text=True, cwd=ROOT)
    try:
        workers = [int(pid) for pid in parent.stdout.readline().split()]  # type: ignore[union-attr]
        assert len(workers) == 2 and all(map(_alive, workers))
        _signal_and_reap(parent, sent, code, workers)  # no orphan left sleeping its 60 s
    finally:
        parent.kill()
        parent.wait()


def _signal_and_reap(parent: subprocess.Popen[bytes] | subprocess.Popen[str],
                     sent: signal.Signals, code: int, workers: Iterable[int]) -> None:
    """Send ``sent``; the parent exits with ``code`` and every worker is gone soon after."""
    parent.send_signal(sent)
    assert parent.wait(timeout=30) == code
    deadline = time.monotonic() + 15
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(map(_alive, workers))


DASK_SCRIPT = """
import sys, time
import analyzer.verify.run as run
from analyzer.dealing.handlog import LogOptions
from analyzer.interrupts import EXIT_TERMINATED, Terminated, stop_on_terminate
from analyzer.processes import task_mapper

def endless(work):  # a check that outlasts the test (pickled by value: defined here)
    time.sleep(120)

work = [run.Work(name, "csv", "punto-banco", 8, LogOptions(), False, True)
        for name in ("a.csv", "b.csv")]
try:  # a second local cluster beside the first: it must not find port 8787 taken
    with stop_on_terminate(), task_mapper("local", 1), task_mapper("local", 2) as apply:
        apply(endless, work)
except Terminated:
    sys.exit(EXIT_TERMINATED)
"""


def _descendants(pid: int) -> set[int]:
    """Every living process under ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text(errors="replace")
    except OSError:
        return ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc (Linux)")
def _parent_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[1]
    except OSError:
        return "gone"


def _workers(pid: int) -> set[int]:
    """The worker processes under ``pid``: forked on Linux (as the pool's), spawned
    elsewhere; not the resource tracker that a spawning cluster starts."""
    return {p for p in _descendants(pid) if "resource_tracker" not in _command(p)}


def test_a_local_dask_cluster_ends_with_its_command_on_sigterm() -> None:
    pytest.importorskip("dask.distributed")
    parent = subprocess.Popen([sys.executable, "-c", DASK_SCRIPT], cwd=ROOT,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(_workers(parent.pid)) < 3:
            assert time.monotonic() < deadline and parent.poll() is None
            time.sleep(0.1)
        time.sleep(1.0)  # the workers take their tasks
        before = _workers(parent.pid)
        parent.send_signal(signal.SIGTERM)
        # no nanny starts a fresh worker for the one it sees die (the command would wait
        # for it to start before closing: tens of seconds on a loaded machine)
        started: dict[int, str] = {}
        while parent.poll() is None and time.monotonic() < deadline + 30:
            started |= {p: _parent_of(p) for p in _workers(parent.pid) - before}
            time.sleep(0.05)
        assert not started, (parent.pid, before, started)
        # no worker left sleeping its 120 s
        _signal_and_reap(parent, signal.SIGTERM, 143, before)
        said = parent.stderr.read()  # type: ignore[union-attr]
        assert "Traceback" not in said and "WARNING" not in said, said  # dask kept quiet
        assert "8787" not in said and "already in use" not in said, said
    finally:
        parent.kill()
        parent.wait()


@pytest.mark.parametrize(("sent", "code", "said"), [(signal.SIGTERM, 143, "nine: terminated"),
                                                    (signal.SIGKILL, -9, "")])
def test_a_simulator_stopped_mid_write_leaves_the_earlier_log(
        tmp_path: Path, sent: signal.Signals, code: int, said: str) -> None:
    """SIGTERM: exit 143, the temporary removed; SIGKILL: nothing can run, but the new log
    was being written to a temporary, so nothing under the log's name is cut short."""
    log = tmp_path / "log.jsonl"
    log.write_text("the earlier log\n")
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "simulate", "--shoes",
                                "1000000", "--out", str(log)], stderr=subprocess.PIPE,
                               text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 30
        while not any(is_temporary(p.name) for p in tmp_path.iterdir()):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.02)
        process.send_signal(sent)
        assert process.wait(timeout=20) == code
        assert process.stderr.read().strip() == said  # type: ignore[union-attr]
    finally:
        process.kill()
        process.wait()
    assert log.read_text() == "the earlier log\n"
    if sent == signal.SIGTERM:
        assert [p.name for p in tmp_path.iterdir()] == ["log.jsonl"]  # no temporary left


# -- bounds: special files and link loops ---------------------------------------------------
@pytest.fixture()
def deadline() -> Iterator[None]:
    """A test that would block on a FIFO fails after 20 s instead of hanging."""
    def expired(signum: int, frame: object) -> None:
        raise TimeoutError("blocked on a special file")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.usefixtures("deadline")
@pytest.mark.parametrize("args", [
    ["odds", "--profile", "{fifo}", "--decks", "1"],
    ["odds", "--shoe", "{fifo}"],
    ["verify", "{fifo}"],
    ["verify", "{log}", "--decks", "1", "--profile", "{fifo}"],
    ["evaluate", "--player", "{fifo}", "--infinite"],
])
def test_a_fifo_given_as_any_input_is_refused_at_once(tmp_path: Path, args: list[str]) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    files = {**_inputs(tmp_path), "fifo": fifo}
    code, output = run([a.format(**files) for a in args])
    assert_clean(code, output)
    assert code == 2 and f"{fifo}: a FIFO (named pipe), not a regular file" in output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
@pytest.mark.usefixtures("deadline")
def test_a_glob_matching_a_special_file_names_it(tmp_path: Path) -> None:
    """A glob's matches are read or refused by name, never silently passed over."""
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "a.csv").write_bytes((CORPUS / "one-deck-shoe.csv").read_bytes())
    (logs / "sub.csv").mkdir()  # a folder is passed over
    code, output = run(["verify", str(logs / "*.csv"), "--decks", "1", "--format", "json"])
    assert code == 0 and len(json.loads(output)["files"]) == 1, output
    os.mkfifo(logs / "b.csv")
    code, output = run(["verify", str(logs / "*.csv"), "--decks", "1"])
    assert_clean(code, output)
    assert code == 2 and f"{logs / 'b.csv'}: a FIFO (named pipe), not a regular file" in output
    (logs / "b.csv").unlink()
    (logs / "c.csv").symlink_to(tmp_path / "gone.csv")
    code, output = run(["verify", str(logs / "*.csv"), "--decks", "1"])
    assert code == 2 and f"{logs / 'c.csv'}: cannot read (No such file" in output


def test_a_temporary_left_by_a_killed_run_is_not_read(tmp_path: Path) -> None:
    left = tmp_path / ".log.csv.0a1b2c3d4e5f.nine-tmp"  # what SIGKILL leaves of simulate
    left.write_bytes((CORPUS / "one-deck-shoe.csv").read_bytes())
    code, output = run(["verify", str(left), "--decks", "1"])
    assert_clean(code, output)
    assert code == 2 and "a temporary file of an interrupted nine run" in output
    code, output = run(["verify", str(tmp_path / "*"), "--decks", "1"])
    assert code == 2 and "no file matches" in output  # a glob does not match it either


def test_rows_of_a_million_empty_fields_are_malformed_records(tmp_path: Path) -> None:
    """Rows of 100,000 empty fields (each a line under the line bound): one malformed
    record each, named by line; memory of the order of the file, not of its fields."""
    import tracemalloc

    from analyzer.verify.run import collect

    rows = (CORPUS / "one-deck-shoe.csv").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "wide.csv"
    log.write_text("\n".join([*rows[:3], *[","* 100_000] * 40, *rows[3:]]) + "\n",
                   encoding="utf-8")
    code, output = run(["verify", str(log), "--decks", "1"])
    assert_clean(code, output)
    assert code == 2 and "wide.csv:4" in output and "wide.csv:43" in output \
        and "found 100001 (truncated or extra fields)" in output
    collect([str(tmp_path / "wide.csv")], "punto-banco", 1)  # models built, caches warm
    tracemalloc.start()
    partial = collect([str(log)], "punto-banco", 1)[0]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert partial.malformed_count == 40
    assert peak < 6 * log.stat().st_size  # split into fields: 4,000,000 x 8 bytes and more


def test_a_loop_of_symbolic_links_is_named(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    code, output = run(["verify", str(loop)])
    assert code == 2 and f"{loop}: cannot read (a loop of symbolic links)" in output
    code, output = run(["par", "--profile", "punto-banco", "--out", str(loop)])
    assert code == 2 and f"{loop}/punto-banco-8-decks.html: cannot write (a loop of " \
        "symbolic links)" in output
    code, output = run(["tables", "--out", str(loop), "--section", "formulas"])
    assert code == 2 and f"{loop}: cannot create the folder (a loop of symbolic links)" \
        in output
    (tmp_path / "loop.toml").symlink_to(tmp_path / "loop.toml")
    code, output = run(["odds", "--profile", str(tmp_path / "loop.toml")])
    assert code == 2 and "loop.toml: cannot read (a loop of symbolic links)" in output


def test_a_decompression_bomb_is_refused_and_the_bound_can_be_raised(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NINE_MAX_EXPANSION", "")  # the CLI sets it: put back after the test
    monkeypatch.setattr(inputs, "EXPANSION_FLOOR", 1 << 18)
    bomb = tmp_path / "bomb.csv.gz"
    bomb.write_bytes(gzip.compress(b"shoe,hand,player_cards,banker_cards\n" + b"\n" * (2 << 20)))
    assert bomb.stat().st_size < 10_000  # 2 MiB from a few kilobytes
    started = time.monotonic()
    code, output = run(["verify", str(bomb)])
    assert code == 2 and "bomb.csv.gz: the gzip stream expands more than 100 times its size" \
        in output and "--max-expansion" in output, output
    assert time.monotonic() - started < 10
    code, output = run(["verify", str(bomb), "--max-expansion", "100000"])
    assert code == 2 and "expands" not in output  # read through: a log of no hands


def test_a_log_longer_than_the_line_bound_is_refused(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NINE_MAX_LINES", "")
    log = _inputs(tmp_path)["log"]
    lines = log.read_text(encoding="utf-8").count("\n")
    code, output = run(["verify", str(log), "--decks", "1", "--max-lines", str(lines - 1)])
    assert_clean(code, output)
    assert code == 2 and f"more than {lines - 1:,} lines; raise the limit with --max-lines" \
        in output
    code, output = run(["verify", str(log), "--decks", "1", "--max-lines", str(lines)])
    assert code == 0, output


# -- numbers: one strict rule ---------------------------------------------------------------
@pytest.mark.parametrize("written", ["\u0661\u0660\u0660", "\uff11\uff10\uff10", "1_00", "+100",
                                     " 100 ", "100.0e0"])
@pytest.mark.parametrize("path_kind", ["columns", "records"])
def test_a_stake_not_in_ascii_digits_is_a_malformed_record(
        tmp_path: Path, written: str, path_kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if path_kind == "records":
        monkeypatch.setenv("NINE_VERIFY_PATH", "records")
    rows = (CORPUS / "one-deck-shoe.csv").read_text(encoding="utf-8").splitlines()
    header = rows[0].split(",")
    cells = rows[2].split(",")
    cells[header.index("banker_stake")] = written
    log = tmp_path / "log.csv"
    log.write_text("\n".join([rows[0], rows[1], ",".join(cells), *rows[3:]]) + "\n",
                   encoding="utf-8")
    code, output = run(["verify", str(log), "--decks", "1"])
    assert_clean(code, output)
    assert code == 2 and "log.csv:3" in output and "ASCII digits" in output, output


# -- memory: a library that cannot be loaded under a limit is "out of memory" ----------------
# (measured end to end: `ulimit -v 300000; NINE_KERNELS=numba nine verify LOG` exits 2 with
# "nine: error: out of memory (see the limits in the README)"; run under a limit, a test
# takes seconds and depends on the machine's libraries, so only the rule is tested here)
def test_what_counts_as_out_of_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    llvmlite = OSError("Could not find/load shared object file 'libllvmlite.so' from "
                       "resource location: 'llvmlite.binding'.")
    assert is_out_of_memory(MemoryError()) and is_out_of_memory(OSError(errno.ENOMEM, "x"))
    monkeypatch.setattr(errors, "_memory_limited", lambda: True)
    assert is_out_of_memory(llvmlite)
    assert is_out_of_memory(ImportError("libopenblas.so: failed to map segment from shared "
                                        "object"))
    assert not is_out_of_memory(OSError(errno.ENOENT, "No such file or directory"))
    monkeypatch.setattr(errors, "_memory_limited", lambda: False)
    assert not is_out_of_memory(llvmlite)  # no limit: a broken install, said as it is


def test_tables_refuse_a_subfolder_that_links_outside(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "a.md").write_text("precious\n")
    folder = tmp_path / "tables"
    nested = _publication({"sub/a.md": b"new a\n"})
    write_tables(_publication({"sub/a.md": b"old a\n"}), folder)
    (folder / "sub" / "a.md").unlink()
    (folder / "sub").rmdir()
    (folder / "sub").symlink_to(outside)
    with pytest.raises(AnalyzerError, match="its folder resolves outside"):
        write_tables(nested, folder, force=True)
    assert (outside / "a.md").read_text() == "precious\n"
