"""A PEP 517 build backend in the standard library alone.

`pip install bindings/python` then needs nothing from an index, with or without build
isolation: no setuptools, no wheel. It packs src/habitcore (and a libhabitcore.so*
placed there, which makes the wheel platform-specific: scripts/build-wheel.sh does that
in a copy of the package) with the metadata of pyproject.toml's [project] table.
"""
from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import stat
import sysconfig
import tarfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "habitcore"


def _project() -> dict[str, str]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    fields = dict(re.findall(r'^(\w[\w-]*)\s*=\s*"([^"]*)"', table, re.M))
    return {"name": fields["name"], "version": fields["version"], "summary": fields.get("description", ""),
            "requires-python": fields.get("requires-python", "")}


def _files() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix not in {".pyc", ".pyo"})


def _tag(files: list[Path]) -> str:
    if any(p.name.startswith("libhabitcore.so") for p in files):
        return "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-any"


def _metadata() -> str:
    project = _project()
    readme = (ROOT / "README.md").read_text(encoding="utf-8") if (ROOT / "README.md").exists() else ""
    lines = ["Metadata-Version: 2.1", f"Name: {project['name']}", f"Version: {project['version']}",
             f"Summary: {project['summary']}", "Classifier: Typing :: Typed"]
    if project["requires-python"]:
        lines.append(f"Requires-Python: {project['requires-python']}")
    lines.append("Description-Content-Type: text/markdown")
    return "\n".join(lines) + "\n\n" + readme


def _dist_info() -> str:
    project = _project()
    return f"{project['name']}-{project['version']}.dist-info"


def _wheel(directory: str, contents: dict[str, bytes], tag: str) -> str:
    project = _project()
    name = f"{project['name']}-{project['version']}-{tag}.whl"
    info = _dist_info()
    contents = dict(contents)
    contents[f"{info}/METADATA"] = _metadata().encode()
    root_is_pure = "true" if tag.endswith("-any") else "false"
    contents[f"{info}/WHEEL"] = (f"Wheel-Version: 1.0\nGenerator: habitcore_build\nRoot-Is-Purelib: {root_is_pure}\n"
                                 f"Tag: {tag}\n").encode()
    record = []
    for path, data in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    contents[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as archive:
        for path, data in contents.items():
            entry = zipfile.ZipInfo(path, date_time=(2026, 1, 1, 0, 0, 0))
            executable = ".so" in path or path.endswith("/habitcore-plugin-runner")
            # A regular file's type bits too: installers honour the mode only with them.
            entry.external_attr = (stat.S_IFREG | (0o755 if executable else 0o644)) << 16
            archive.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return name


def get_requires_for_build_wheel(config_settings: object = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: object = None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings: object = None) -> list[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    files = _files()
    contents = {"habitcore/" + p.relative_to(PACKAGE).as_posix(): p.read_bytes() for p in files}
    return _wheel(wheel_directory, contents, _tag(files))


def build_editable(wheel_directory: str, config_settings: object = None, metadata_directory: object = None) -> str:
    return _wheel(wheel_directory, {"habitcore.pth": (str(ROOT / "src") + "\n").encode()}, "py3-none-any")


def build_sdist(sdist_directory: str, config_settings: object = None) -> str:
    project = _project()
    base = f"{project['name']}-{project['version']}"
    name = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as archive:
        for path in [ROOT / "pyproject.toml", ROOT / "README.md", *sorted((ROOT / "backend").glob("*.py")), *_files(),
                     *sorted((ROOT / "tests").glob("*.py"))]:
            if path.exists():
                archive.add(path, arcname=f"{base}/{path.relative_to(ROOT).as_posix()}")
        data = _metadata().encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return name
