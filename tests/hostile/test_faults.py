"""Faults and hostile paths, not just bad content: no file written outside its folder, no
input overwritten, no file cut short where a good one was, interrupted runs repaired."""

from __future__ import annotations

from pathlib import Path

import pytest

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
