"""gamenight.core.entrypoints reads an entry-point group as importlib.metadata does: the
same points in the same order, each with its distribution's name, on the test run's
own path and on made-up ones (shadowed distributions, odd names and files, a zip)."""

from __future__ import annotations

import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from gamenight.core import entrypoints
from gamenight.core.entrypoints import points

GROUP = "gamenight.games"


def _importlib(group: str) -> list[tuple[str, str, str]]:
    return [(ep.name, ep.value, ep.dist.name) for ep in metadata.entry_points(group=group)]  # type: ignore[union-attr]


def _fast(group: str) -> list[tuple[str, str, str]]:
    return [(name, value, dist) for name, value, dist, _folder in points(group)]


def _dist(site: Path, folder: str, name: str | None, entry_points: str) -> Path:
    info = site / folder
    info.mkdir(parents=True)
    if name is not None:
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1\n")
    (info / "entry_points.txt").write_text(entry_points)
    return info


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder at the front of sys.path."""
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("group", [GROUP, "console_scripts", "pytest11", "no.such.group"])
def test_the_run_s_own_path_reads_as_importlib(group: str) -> None:
    """This run's path: the venv, gamenight's editable install, the toy plug-in."""
    assert entrypoints._read(group) == entrypoints._from_importlib(group)


def test_order_shadowing_and_names(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    later = site / "later"
    _dist(site, "Zeta_Games-2.0.dist-info", "Zeta-Games", f"[{GROUP}]\nzeta = zeta_pkg\n")
    _dist(site, "alpha.egg-info", "alpha", f"[x]\na = b\n[{GROUP}]\n# c\n one = p.one \n")
    _dist(site, "zeta.games-1.0.dist-info", "zeta.games", f"[{GROUP}]\nshadowed = no\n")
    _dist(later, "alpha-9.dist-info", "alpha", f"[{GROUP}]\nhidden = no\n")
    _dist(later, "beta-1.dist-info", "beta", f"[ {GROUP} ]\nspaced = no\n[{GROUP}]\nb = b=c\n")
    _dist(later, "gamma-1.dist-info", "gamma", "")
    monkeypatch.syspath_prepend(str(later))
    monkeypatch.syspath_prepend(str(site))
    fast = _fast(GROUP)
    assert fast == _importlib(GROUP)
    assert {name for name, _, _ in fast} >= {"zeta", "one", "b"}
    assert not {"hidden", "spaced"} & {name for name, _, _ in fast}


@pytest.mark.parametrize(
    ("metadata_text", "read_here"),
    [
        ("Metadata-Version: 2.1\nName: folded\n  -name\n", False),  # a folded header
        ("Metadata-Version: 2.1\nnot a header\nName: body\n", False),  # headers end early
        ("Metadata-Version: 2.1\nName:\tspaced  \n", True),  # kept as email keeps it
    ],
)
def test_names_as_email_reads_them(site: Path, metadata_text: str, read_here: bool) -> None:
    """A header the reader is not sure of is left to importlib (and email)."""
    info = _dist(site, "odd-1.dist-info", None, f"[{GROUP}]\nodd = odd_pkg\n")
    (info / "METADATA").write_text(metadata_text)
    assert _fast(GROUP) == _importlib(GROUP)
    if read_here:
        assert ("odd", "odd_pkg", "spaced  ") in _fast(GROUP)
    else:
        with pytest.raises(entrypoints._Odd):
            entrypoints._read(GROUP)


def test_no_metadata_file_and_odd_folder_names(site: Path) -> None:
    _dist(site, "nameless-1.dist-info", None, f"[{GROUP}]\nn = n_pkg\n")
    (site / "nameless-1.dist-info" / "PKG-INFO").write_text("Name: from-pkg-info\n")
    _dist(site, "Upper-1.DIST-INFO", "upper", f"[{GROUP}]\nu = u_pkg\n")
    assert {"n", "u"} <= {name for name, _, _ in _fast(GROUP)}
    assert _fast(GROUP) == _importlib(GROUP)


def test_a_zip_on_the_path(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    archive = site / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("zipped-1.dist-info/METADATA", "Name: zipped\n")
        z.writestr("zipped-1.dist-info/entry_points.txt", f"[{GROUP}]\nzipped = zipped_pkg\n")
    monkeypatch.syspath_prepend(str(archive))
    with pytest.raises(entrypoints._Odd):
        entrypoints._read(GROUP)
    assert ("zipped", "zipped_pkg", "zipped") in _fast(GROUP)
    assert _fast(GROUP) == _importlib(GROUP)


def test_a_line_that_is_no_entry_point_fails_as_in_importlib(site: Path) -> None:
    _dist(site, "broken-1.dist-info", "broken", f"[{GROUP}]\nno equals sign\n")
    with pytest.raises(TypeError):
        _importlib(GROUP)
    with pytest.raises(TypeError):
        points(GROUP)


def test_another_finder_that_lists_distributions(monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        @staticmethod
        def find_distributions(*args: object, **kwargs: object) -> list[object]:
            return []

        @staticmethod
        def find_spec(*args: object, **kwargs: object) -> None:
            return None

    import sys

    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    with pytest.raises(entrypoints._Odd):
        entrypoints._read(GROUP)
    assert _fast(GROUP) == _importlib(GROUP)
