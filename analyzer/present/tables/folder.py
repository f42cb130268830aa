"""Writing and checking the tables folder through its manifest.

``nine tables --out DIR`` keeps a manifest, ``DIR/.nine-tables-manifest``, listing every
file it wrote there (its SHA-256, its section, its path). The manifest is what the command
owns: it only ever replaces or removes files the manifest lists, so a user's own files in
the folder (notes, other tables, hidden folders) are never touched. A folder that is not
empty and has no manifest was not written by ``nine tables`` and is refused, naming it; a
file about to be written that exists but is not listed is refused too, before anything is
written. A build of some sections (``--section``) replaces and removes only those sections'
files (and rewrites the index only when the folder holds no other section). Every file is
written atomically: a temporary file in the same folder, then :func:`os.replace`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from analyzer import __version__
from analyzer.errors import AnalyzerError
from analyzer.outputs import write_file
from analyzer.present.tables.publication import INDEX_SECTION, Publication

__all__ = ["check_writable", "compare_tables", "MANIFEST", "Manifest",
           "read_manifest", "render_manifest", "write_tables"]

#: The manifest's file name inside the output folder.
MANIFEST = ".nine-tables-manifest"
_HEADER = "# nine-analyzer tables manifest: every file `nine tables` wrote in this folder"
_FORMAT = "# sha256 section path; written by `nine tables`, do not edit"
#: Largest manifest read (a folder of tables has a few hundred lines).
_MAX_MANIFEST = 4 * 1024 * 1024


@dataclass(frozen=True)
class Manifest:
    """The files a previous ``nine tables`` wrote in a folder: path -> (sha256, section)."""

    files: Mapping[str, tuple[str, str]]

    def section_of(self, path: str) -> str:
        """The section that wrote ``path``."""
        return self.files[path][1]


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _safe_relative(path: str, where: str) -> str:
    """A manifest path as written, refused unless it stays inside the folder."""
    pure = PurePosixPath(path)
    if (not path or pure.is_absolute() or ".." in pure.parts or "\\" in path
            or pure.as_posix() != path or path == MANIFEST):
        raise AnalyzerError(f"{where}: {path!r} is not a path inside the folder")
    return path


def read_manifest(folder: str | Path) -> Manifest | None:
    """The folder's manifest, or None when it has none. A damaged manifest is an error."""
    path = Path(folder) / MANIFEST
    if not path.is_file():
        return None
    if path.stat().st_size > _MAX_MANIFEST:
        raise AnalyzerError(f"{path}: too large for a tables manifest")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise AnalyzerError(f"{path}: not a tables manifest (not UTF-8 text)") from None
    files: dict[str, tuple[str, str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(" ", 2)
        if len(parts) != 3 or len(parts[0]) != 64 or not all(
                c in "0123456789abcdef" for c in parts[0]) or not parts[1]:
            raise AnalyzerError(f"{path}:{number}: not a manifest line (sha256 section path)")
        files[_safe_relative(parts[2], f"{path}:{number}")] = (parts[0], parts[1])
    return Manifest(files)


def render_manifest(entries: Mapping[str, tuple[str, str]]) -> bytes:
    """The manifest's text: a header, then one ``sha256 section path`` line per file."""
    lines = [_HEADER, _FORMAT, f"# analyzer {__version__}"]
    lines += [f"{digest} {section} {path}" for path, (digest, section)
              in sorted(entries.items())]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _owners(publication: Publication) -> dict[str, str]:
    """Path -> section for every file of the publication (the index is its own section)."""
    return {path: publication.owner.get(path, INDEX_SECTION) for path in publication.files}


def _built(publication: Publication) -> set[str]:
    return {section.id for section in publication.sections} | {INDEX_SECTION}


def _plan(publication: Publication, manifest: Manifest | None
          ) -> tuple[dict[str, bytes], list[str], dict[str, tuple[str, str]]]:
    """What a write does: files to write, listed files to remove, the final manifest."""
    owners = _owners(publication)
    built = _built(publication)
    old = dict(manifest.files) if manifest else {}
    if publication.complete:  # every section: a section no longer made is stale entirely
        built |= {section for _, section in old.values()}
    others = {section for _, section in old.values()} - built
    files = dict(publication.files)
    if others:  # a build of some sections into a folder holding others: keep the index
        built.discard(INDEX_SECTION)
        files = {path: content for path, content in files.items()
                 if owners[path] != INDEX_SECTION}
    remove = sorted(path for path, (_, section) in old.items()
                    if section in built and path not in files)
    final = {path: entry for path, entry in old.items() if path not in remove}
    final.update({path: (_digest(content), owners[path]) for path, content in files.items()})
    return files, remove, final


def _check_folder(folder: Path, manifest: Manifest | None, writing: Iterable[str]) -> None:
    """Refuse a folder ``nine tables`` did not write, or a file it does not own."""
    if manifest is None:
        if folder.is_dir() and any(folder.iterdir()):
            raise AnalyzerError(
                f"{folder}: not empty and has no {MANIFEST}, so nine tables did not write it; "
                "give an empty or new folder (nothing was written)")
        return
    for path in writing:
        if path not in manifest.files and (folder / path).exists():
            raise AnalyzerError(
                f"{folder / path}: exists but is not in {folder / MANIFEST}; nine tables "
                "replaces only files it wrote (move it away; nothing was written)")


def check_writable(folder: str | Path) -> None:
    """Fail at once (before any table is built) on a folder ``nine tables`` may not use."""
    _check_folder(Path(folder), read_manifest(folder), ())


def write_tables(publication: Publication, folder: str | Path) -> tuple[int, int]:
    """Write the publication into ``folder`` under its manifest.

    Returns (files written or changed, listed files removed). Files the manifest does not
    list are never replaced or removed; folders are removed only when removing a listed
    file empties them.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    files, remove, final = _plan(publication, manifest)
    _check_folder(folder, manifest, files)
    folder.mkdir(parents=True, exist_ok=True)
    # First list every file about to exist (old and new), so an interrupted write leaves
    # nothing the manifest does not own; then write, remove, and list the final state.
    interim = {**(manifest.files if manifest else {}), **final}
    write_file(folder / MANIFEST, render_manifest(interim))
    changed = 0
    for relative, content in sorted(files.items()):
        path = folder / relative
        if path.is_file() and not path.is_symlink() and path.read_bytes() == content:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        write_file(path, content)
        changed += 1
    removed = 0
    for relative in remove:
        path = folder / relative
        if path.is_file() or path.is_symlink():
            path.unlink()
            removed += 1
        parent = path.parent
        while parent != folder and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    write_file(folder / MANIFEST, render_manifest(final))
    return changed, removed


def compare_tables(publication: Publication, folder: str | Path) -> list[str]:
    """Differences between the publication and ``folder``: missing, stale and extra files.

    Every file is compared byte for byte (PNG included). Only the sections built are
    checked; ``extra`` is a listed file of those sections that a write would remove. The
    manifest itself is checked when the index is (a build of every section).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    files, remove, final = _plan(publication, manifest)
    problems = []
    for relative, content in sorted(files.items()):
        path = folder / relative
        if not path.is_file():
            problems.append(f"missing: {relative}")
        elif path.read_bytes() != content:
            problems.append(f"stale: {relative}")
    problems += [f"extra: {relative}" for relative in remove if (folder / relative).exists()]
    if INDEX_SECTION in {publication.owner.get(p, INDEX_SECTION) for p in files}:
        if manifest is None:
            problems.append(f"missing: {MANIFEST}")
        elif (folder / MANIFEST).read_bytes() != render_manifest(final):
            problems.append(f"stale: {MANIFEST}")
    return problems
