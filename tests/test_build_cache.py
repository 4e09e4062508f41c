"""The build cache makes an unchanged build fast and can never make ``build --check`` pass wrongly.

The command-line tests run in a copy of the project (with the repository's
cache copied too, so an unchanged build is a cache hit there as well).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from mjspec.compiler import cache
from mjspec.compiler.build import (
    BuildOutput,
    Layout,
    ProfileSummary,
    build,
    source_folders,
    stale_files,
)

from conftest import ROOT
from projectkit import copy_project

#: Runs the command line and reports whether the compiler's heavy dependencies were imported.
PROBE = (
    "import sys\n"
    "from mjspec.app.cli import main\n"
    "status = main(sys.argv[1:])\n"
    "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'black', 'jinja2', 'jsonschema'})\n"
    "print('HEAVY', ','.join(heavy))\n"
    "raise SystemExit(status)\n"
)


def primed_copy(tmp_path: Path) -> Path:
    """A copy of the project with the repository's build cache, primed with the current build."""
    assert build(Layout.bundled()).errors == []
    return copy_project(tmp_path, extra=(cache.FOLDER,))


def mjspec(pkg: Path, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(pkg.parent))
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        cwd=cwd or pkg,
        env=env,
        capture_output=True,
        text=True,
    )


def test_unchanged_check_is_a_cache_hit_that_loads_no_compiler(tmp_path: Path) -> None:
    pkg = primed_copy(tmp_path)
    res = mjspec(pkg, "build", "--check")
    assert res.returncode == 0, res.stderr
    assert "up to date: 7 profile(s)" in res.stdout
    assert "HEAVY \n" in res.stdout  # black, jinja2 and jsonschema were never imported


def test_a_changed_spec_fails_check_whatever_the_cache_holds(tmp_path: Path) -> None:
    pkg = primed_copy(tmp_path)
    spec = pkg / "specs" / "sichuan_tfmj.yaml"
    text = spec.read_text("utf-8")
    assert "Basic Hand (Ping Hu)" in text
    spec.write_text(text.replace("Basic Hand (Ping Hu)", "Plain Hand (Ping Hu)"), "utf-8")
    res = mjspec(pkg, "build", "--check")
    assert res.returncode == 1, res.stdout + res.stderr
    assert "stale: generated/sichuan_tfmj.py" in res.stderr
    assert "stale: docs/rules/sichuan_tfmj.en.md" in res.stderr
    assert mjspec(pkg, "build").returncode == 0
    assert "Plain Hand (Ping Hu)" in (pkg / "generated" / "sichuan_tfmj.py").read_text("utf-8")
    again = mjspec(pkg, "build", "--check")
    assert again.returncode == 0 and "HEAVY \n" in again.stdout  # the new build is the one cached
    # A hand edit of a generated file is stale even though the cache holds the right output.
    engine = pkg / "generated" / "gb_mcr.py"
    engine.write_text(engine.read_text("utf-8") + "# edited\n", "utf-8")
    edited = mjspec(pkg, "build", "--check")
    assert edited.returncode == 1 and "stale: generated/gb_mcr.py" in edited.stderr


def test_build_without_the_registry_module_writes_in_the_project(tmp_path: Path) -> None:
    """Without generated/__init__.py, generated/ is a namespace package: still found, never
    `MultiplexedPath(...)`."""
    pkg = primed_copy(tmp_path)
    (pkg / "generated" / "__init__.py").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # --bundled: the package's own profiles from any folder (elsewhere would be a workspace)
    res = mjspec(pkg, "build", "--bundled", cwd=elsewhere)
    assert res.returncode == 0, res.stderr
    assert list(elsewhere.iterdir()) == []
    assert (pkg / "generated" / "__init__.py").read_bytes() == (
        ROOT / "generated" / "__init__.py"
    ).read_bytes()
    assert mjspec(pkg, "build", "--check", "--bundled", cwd=elsewhere).returncode == 0


def fake_layout(tmp_path: Path) -> Layout:
    layout = Layout.at(tmp_path)
    layout.specs.mkdir()
    (layout.specs / "a.yaml").write_text("id: a\n")
    return layout


def test_every_input_changes_the_digest(tmp_path: Path) -> None:
    layout = fake_layout(tmp_path)
    sources = tmp_path / "src"
    (sources / "templates").mkdir(parents=True)
    (sources / "templates" / "engine.py.j2").write_text("{{ ir }}\n")
    (sources / "emit.py").write_text("x = 1\n")
    first = cache.inputs_digest(layout, [sources])
    assert cache.inputs_digest(layout, [sources]) == first
    (sources / "__pycache__").mkdir()
    (sources / "__pycache__" / "emit.cpython-311.pyc").write_bytes(b"\0")
    assert cache.inputs_digest(layout, [sources]) == first  # build products do not count
    seen = {first}
    for path, text in [
        (sources / "templates" / "engine.py.j2", "{{ ir }} \n"),
        (sources / "emit.py", "x = 2\n"),
        (layout.specs / "a.yaml", "id: a  \n"),
        (layout.specs / "b.yaml", "id: b\n"),
    ]:
        path.write_text(text)
        digest = cache.inputs_digest(layout, [sources])
        assert digest not in seen, path
        seen.add(digest)


def test_the_real_sources_are_hashed() -> None:
    folders = source_folders()
    assert [f.name for f in folders] == ["compiler", "runtime"]
    assert (folders[0] / "templates" / "engine.py.j2").exists() and (
        folders[1] / "scoring.py"
    ).exists()


def test_a_damaged_cache_is_a_miss_never_an_answer(tmp_path: Path) -> None:
    layout = fake_layout(tmp_path)
    outputs = [(layout.generated / "a.py", b"A = 1\n"), (layout.rules / "a.en.md", "é\n".encode())]
    summaries = [ProfileSummary("a", 1, 0, 2, 3)]
    cache.store(layout, "d1", outputs, summaries)
    assert cache.load(layout, "d1") == (outputs, summaries)
    assert cache.load(layout, "d2") is None
    [blob] = [
        b for b in (cache.folder(layout) / "blobs").glob("*/*") if b.read_bytes() == b"A = 1\n"
    ]
    blob.write_bytes(b"A = 2\n")
    assert cache.load(layout, "d1") is None
    blob.unlink()
    assert cache.load(layout, "d1") is None
    manifest = cache.folder(layout) / "builds" / "d1.json"
    manifest.write_text("{not json")
    assert cache.load(layout, "d1") is None


def test_only_the_last_builds_are_kept(tmp_path: Path) -> None:
    layout = fake_layout(tmp_path)
    for i in range(cache.KEPT_BUILDS + 2):
        cache.store(layout, f"d{i}", [(layout.generated / "a.py", f"A = {i}\n".encode())], [])
        os.utime(cache.folder(layout) / "builds" / f"d{i}.json", (i, i))
    cache.store(layout, "last", [(layout.generated / "a.py", b"A = last\n")], [])
    kept = sorted(p.stem for p in (cache.folder(layout) / "builds").glob("*.json"))
    assert len(kept) == cache.KEPT_BUILDS and "last" in kept and "d0" not in kept
    blobs = {b.read_bytes() for b in (cache.folder(layout) / "blobs").glob("*/*")}
    assert len(blobs) == cache.KEPT_BUILDS and b"A = last\n" in blobs


def test_memo_checks_what_it_returns(tmp_path: Path) -> None:
    memo = cache.Memo(tmp_path / "black", "salt")
    assert memo.get("raw") is None
    memo.put("raw", "formatted")
    assert cache.Memo(tmp_path / "black", "salt").get("raw") == "formatted"
    assert cache.Memo(tmp_path / "black", "other black").get("raw") is None
    [entry] = (tmp_path / "black").iterdir()
    entry.write_bytes(entry.read_bytes().replace(b"formatted", b"forMatted"))
    assert cache.Memo(tmp_path / "black", "salt").get("raw") is None


def test_stale_files_compare_bytes(tmp_path: Path) -> None:
    layout = fake_layout(tmp_path)
    path = layout.generated / "a.py"
    out = BuildOutput(outputs=[(path, b"A = 1\n")])
    assert stale_files(layout, out) == [path]
    path.parent.mkdir()
    path.write_bytes(b"A = 1\n")
    assert stale_files(layout, out) == []
    (layout.generated / "orphan.py").write_text("")
    assert stale_files(layout, out) == [layout.generated / "orphan.py"]


def test_specs_load_with_libyaml_and_keep_their_lines(tmp_path: Path) -> None:
    import yaml

    from mjspec.compiler import load
    from mjspec.compiler.errors import SpecErrors

    if getattr(yaml, "__with_libyaml__", False):
        assert issubclass(load._Loader, yaml.CSafeLoader)
    loaded = load.load_spec_text("id: a\nscoring:\n  cap: 3\n", "a.yaml")
    assert loaded.where(("scoring", "cap")).line == 3
    try:
        load.load_spec_text("id: a\nscoring:\n  cap: [3\n", "a.yaml")
    except SpecErrors as e:
        assert str(e.errors[0]).startswith("a.yaml:4:")
    else:
        raise AssertionError("malformed YAML was accepted")
