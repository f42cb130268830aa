"""Writing and checking the tables folder through its manifest.

``nine tables --out DIR`` keeps a manifest, ``DIR/.nine-tables-manifest``, listing every
file it wrote there (its SHA-256, its section, its path). The manifest is what the command
owns: it only ever replaces or removes files the manifest lists, so a user's own files in
the folder (notes, other tables, hidden folders) are never touched. A folder that is not
empty and has no manifest was not written by ``nine tables`` and is refused, naming it; a
file about to be written that exists but is not listed is refused too, before anything is
written. A build of some sections (``--section``) replaces and removes only those sections'
files (and rewrites the index only when the folder holds no other section). Every file is
written atomically (:func:`analyzer.outputs.write_file`).

**Interrupted runs are repaired.** Before writing any file a run lists, for each path, both
the digest it had and the digest it will have; a run killed at any point (the first
manifest included) therefore leaves a folder whose every file the next run recognises.
Temporaries of the output layer left by a killed run (:func:`analyzer.outputs.is_temporary`,
and the ``.<name>.<8 characters>.tmp`` of earlier versions) are removed by the next write and
reported by ``--check``.

**A file edited by hand is kept.** A listed file whose SHA-256 is none of the manifest's
for it was changed by someone else: the run refuses, naming it, unless ``force``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from analyzer import __version__
from analyzer.errors import AnalyzerError
from analyzer.outputs import is_temporary, make_folder, write_file
from analyzer.present.tables.publication import INDEX_SECTION, Publication

__all__ = ["check_writable", "compare_tables", "edited_files", "leftover_temporaries",
           "MANIFEST", "Manifest", "read_manifest", "render_manifest", "write_tables"]

#: The manifest's file name inside the output folder.
MANIFEST = ".nine-tables-manifest"
_HEADER = "# nine-analyzer tables manifest: every file `nine tables` wrote in this folder"
_FORMAT = "# sha256 section path; written by `nine tables`, do not edit"
#: Largest manifest read (a folder of tables has a few hundred lines).
_MAX_MANIFEST = 4 * 1024 * 1024
#: A temporary of the writer of earlier versions: ``.<name>.<8 characters>.tmp``.
_OLD_TEMPORARY = re.compile(r"\.(.+)\.[a-z0-9_]{8}\.tmp")


@dataclass(frozen=True)
class Manifest:
    """The files a previous ``nine tables`` wrote in a folder: path -> (sha256, section);
    ``earlier``: the other digest a path may have while a write is under way."""

    files: Mapping[str, tuple[str, str]]
    earlier: Mapping[str, str] | None = None

    def digests(self, path: str) -> set[str]:
        """Every content the manifest accepts for ``path`` (one, two mid-write)."""
        found = {self.files[path][0]}
        if self.earlier and path in self.earlier:
            found.add(self.earlier[path])
        return found

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
    earlier: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split(" ", 2)
        if len(parts) != 3 or len(parts[0]) != 64 or not all(
                c in "0123456789abcdef" for c in parts[0]) or not parts[1]:
            raise AnalyzerError(f"{path}:{number}: not a manifest line (sha256 section path)")
        relative = _safe_relative(parts[2], f"{path}:{number}")
        if relative in files:  # a write under way: the digest before it, then after
            earlier[relative] = files[relative][0]
        files[relative] = (parts[0], parts[1])
    return Manifest(files, earlier)


def render_manifest(entries: Mapping[str, tuple[str, str]],
                    earlier: Mapping[str, str] | None = None) -> bytes:
    """The manifest's text: a header, then one ``sha256 section path`` line per file (two
    for a file of ``earlier`` whose digest changes: the one before first)."""
    lines = [_HEADER, _FORMAT, f"# analyzer {__version__}"]
    for path, (digest, section) in sorted(entries.items()):
        before = (earlier or {}).get(path)
        if before is not None and before != digest:
            lines.append(f"{before} {section} {path}")
        lines.append(f"{digest} {section} {path}")
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


def _own_temporary(name: str, listed: set[str]) -> bool:
    """A temporary file this command's writes leave when killed: the output layer's, or an
    earlier version's of a file it lists (``listed``: names in the same folder)."""
    if is_temporary(name):
        return True
    old = _OLD_TEMPORARY.fullmatch(name)
    return old is not None and old.group(1) in listed | {MANIFEST}


def leftover_temporaries(folder: str | Path, manifest: Manifest | None) -> list[Path]:
    """Temporaries left by a killed run, in the folder and the folders of listed files."""
    folder = Path(folder)
    names: dict[Path, set[str]] = {folder: set()}
    for relative in (manifest.files if manifest else {}):
        path = folder / relative
        names.setdefault(path.parent, set()).add(path.name)
    found = []
    for place, listed in sorted(names.items()):
        if place.is_dir() and not place.is_symlink():
            found += [entry for entry in sorted(place.iterdir())
                      if entry.is_file() and _own_temporary(entry.name, listed)]
    return found


def _digest_of(path: Path) -> str | None:
    """A regular file's SHA-256 (None when it is missing or not a regular file)."""
    if not path.is_file() or path.is_symlink():
        return None
    return _digest(path.read_bytes())


def edited_files(folder: str | Path, manifest: Manifest | None,
                 sections: Iterable[str] | None = None) -> Iterator[str]:
    """Listed files (of ``sections``, default all) whose content the manifest does not
    hold: edited by hand since ``nine tables`` wrote them."""
    if manifest is None:
        return
    chosen = None if sections is None else set(sections)
    for relative, (_, section) in sorted(manifest.files.items()):
        if chosen is not None and section not in chosen:
            continue
        digest = _digest_of(Path(folder) / relative)
        if digest is not None and digest not in manifest.digests(relative):
            yield relative


def _refuse_edited(folder: Path, edited: Iterable[str]) -> None:
    for relative in edited:
        raise AnalyzerError(
            f"{folder / relative}: edited since nine tables wrote it (its SHA-256 is not the "
            f"one in {folder / MANIFEST}); move it away or give --force (nothing was written)")


def _check_folder(folder: Path, manifest: Manifest | None, writing: Iterable[str]) -> None:
    """Refuse a folder ``nine tables`` did not write, or a file it does not own."""
    if manifest is None:
        if folder.is_dir() and any(not _own_temporary(entry.name, set())
                                   for entry in folder.iterdir()):
            raise AnalyzerError(
                f"{folder}: not empty and has no {MANIFEST}, so nine tables did not write it; "
                "give an empty or new folder (nothing was written)")
        return
    for path in writing:
        if path not in manifest.files and (folder / path).exists():
            raise AnalyzerError(
                f"{folder / path}: exists but is not in {folder / MANIFEST}; nine tables "
                "replaces only files it wrote (move it away; nothing was written)")


def _check_inside(folder: Path, relatives: Iterable[str]) -> None:
    """Refuse a file whose folder resolves outside ``folder`` (a subfolder that is a
    symbolic link out of it): every write and removal stays inside the folder."""
    try:
        base = folder.resolve()
        for relative in relatives:
            parent = (folder / relative).parent
            if not parent.resolve().is_relative_to(base):
                raise AnalyzerError(f"{folder / relative}: its folder resolves outside "
                                    f"{folder} (a symbolic link); nothing was written")
    except (RuntimeError, OSError):  # Python 3.11 raises RuntimeError on a loop
        raise AnalyzerError(f"{folder}: cannot write (a loop of symbolic links)") from None


def check_writable(folder: str | Path, sections: Iterable[str] | None = None,
                   force: bool = False) -> None:
    """Fail at once (before any table is built) on a folder ``nine tables`` may not use, or
    holding a file of ``sections`` (default all) edited by hand (unless ``force``)."""
    manifest = read_manifest(folder)
    _check_folder(Path(folder), manifest, ())
    if not force:
        _refuse_edited(Path(folder), edited_files(folder, manifest, sections))


def write_tables(publication: Publication, folder: str | Path,
                 force: bool = False) -> tuple[int, int]:
    """Write the publication into ``folder`` under its manifest.

    Returns (files written or changed, listed files removed). Files the manifest does not
    list are never replaced or removed; folders are removed only when removing a listed
    file empties them. A listed file about to be replaced or removed whose content is not
    the manifest's is refused unless ``force``. Temporaries a killed run left are removed.
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    files, remove, final = _plan(publication, manifest)
    _check_folder(folder, manifest, files)
    _check_inside(folder, [*files, *remove])
    if not force and manifest is not None:
        touched = set(files) | set(remove)
        _refuse_edited(folder, (path for path in edited_files(folder, manifest)
                                if path in touched))
    for leftover in leftover_temporaries(folder, manifest):
        leftover.unlink()
    make_folder(folder)
    # First list every file about to exist (old and new), with both digests of a file
    # about to change, so that a run interrupted anywhere leaves a folder the next run
    # recognises; then write, remove, and list the final state.
    old = manifest.files if manifest else {}
    interim = {**old, **final}
    current = {path: digest for path in interim
               if (digest := _digest_of(folder / path)) is not None}
    write_file(folder / MANIFEST, render_manifest(interim, current))
    changed = 0
    for relative, content in sorted(files.items()):
        path = folder / relative
        if path.is_file() and not path.is_symlink() and path.read_bytes() == content:
            continue
        make_folder(path.parent)
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
    checked; ``extra`` is a listed file of those sections that a write would remove;
    ``edited by hand`` a listed file whose content is not the manifest's; ``leftover
    temporary`` a killed run's. The manifest itself is checked when the index is (a build
    of every section).
    """
    folder = Path(folder)
    manifest = read_manifest(folder)
    files, remove, final = _plan(publication, manifest)
    edited = set(edited_files(folder, manifest))
    problems = []
    for relative, content in sorted(files.items()):
        path = folder / relative
        if not path.is_file():
            problems.append(f"missing: {relative}")
        elif path.read_bytes() != content:
            problems.append(f"{'edited by hand' if relative in edited else 'stale'}: "
                            f"{relative}")
    problems += [f"{'edited by hand' if relative in edited else 'extra'}: {relative}"
                 for relative in remove if (folder / relative).exists()]
    problems += [f"leftover temporary: {path.relative_to(folder).as_posix()}"
                 for path in leftover_temporaries(folder, manifest)]
    if INDEX_SECTION in {publication.owner.get(p, INDEX_SECTION) for p in files}:
        if manifest is None:
            problems.append(f"missing: {MANIFEST}")
        elif (folder / MANIFEST).read_bytes() != render_manifest(final):
            problems.append(f"stale: {MANIFEST}")
    return problems
