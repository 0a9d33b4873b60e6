"""The build backend of `pyproject.toml` beside it (PEP 517, PEP 660), standard library only.

It builds a wheel of the one module `tandem_client.py` (its version is the module's
`__version__`), an sdist, and an editable wheel (a `.pth` naming this folder). Nothing is
written into this folder: only the files pip asks for, where it asks.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME, MODULE = "tandem-client", "tandem_client"
SDIST_FILES = ("pyproject.toml", "_tandem_build.py", "tandem_client.py", "README.md")


def _version() -> str:
    with open(os.path.join(HERE, f"{MODULE}.py"), encoding="utf-8") as source:
        match = re.search(r'^__version__ = "([^"]+)"', source.read(), re.MULTILINE)
    if not match:
        raise RuntimeError(f"{MODULE}.py has no __version__")
    return match.group(1)


def _metadata() -> str:
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {_version()}\n"
            "Summary: Client for Tandem's control socket (tandem serve): apps and controllers,"
            " blocking and asyncio\nRequires-Python: >=3.9\n")


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _wheel(directory: str, files: dict) -> str:
    version = _version()
    dist_info = f"{MODULE}-{version}.dist-info"
    files = dict(files)
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: _tandem_build\n"
                                   b"Root-Is-Purelib: true\nTag: py3-none-any\n")
    record = [_record_line(path, data) for path, data in files.items()] + [f"{dist_info}/RECORD,,"]
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    name = f"{MODULE}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(path, data)
    return name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with open(os.path.join(HERE, f"{MODULE}.py"), "rb") as source:
        return _wheel(wheel_directory, {f"{MODULE}.py": source.read()})


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, {f"_{MODULE}_editable.pth": (HERE + "\n").encode()})


def build_sdist(sdist_directory, config_settings=None):
    base = f"{MODULE}-{_version()}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as sdist:
        for file in SDIST_FILES:
            sdist.add(os.path.join(HERE, file), arcname=f"{base}/{file}")
        info = _metadata().encode()
        entry = tarfile.TarInfo(f"{base}/PKG-INFO")
        entry.size = len(info)
        sdist.addfile(entry, io.BytesIO(info))
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []
