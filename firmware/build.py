"""Assemble a folder ready to copy onto the Pico's CIRCUITPY drive.

    python firmware/build.py build/CIRCUITPY [--bundle-lib PATH/TO/bundle/lib]

Lays out::

    code.py  boot.py
    lib/relic_protocol.py      (a copy of rig/table/protocol.py: one frame definition for both ends)
    lib/relichub/*.py
    lib/adafruit_lis3dh.mpy, lib/adafruit_bus_device/   (only with --bundle-lib)

Without ``--bundle-lib`` install the two libraries with ``circup install adafruit_lis3dh`` or copy
them from the CircuitPython 9.x library bundle (see firmware/README.md).  ``--bundle-lib`` also
takes a folder of the libraries' sources (``adafruit_lis3dh.py``, as the test tier installs them
from PyPI).  Runs on CPython only.
"""

import argparse
import shutil
import sys
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parent
REPO_DIR = FIRMWARE_DIR.parent
PROTOCOL_SOURCE = REPO_DIR / "rig" / "table" / "protocol.py"
# Each library as the bundle ships it, then as source; the first found is copied.
BUNDLE_LIBS = (("adafruit_lis3dh.mpy", "adafruit_lis3dh.py"), ("adafruit_bus_device",))


def build(out_dir, bundle_lib=None):
    """Write the CIRCUITPY tree into ``out_dir`` (created; old relichub files replaced).

    Returns the list of files written, relative to ``out_dir``.
    """
    out = Path(out_dir)
    lib = out / "lib"
    package = lib / "relichub"
    if package.exists():
        shutil.rmtree(package)
    package.mkdir(parents=True)
    written = []
    for name in ("code.py", "boot.py"):
        shutil.copyfile(FIRMWARE_DIR / name, out / name)
        written.append(name)
    for source in sorted((FIRMWARE_DIR / "relichub").glob("*.py")):
        shutil.copyfile(source, package / source.name)
        written.append("lib/relichub/" + source.name)
    shutil.copyfile(PROTOCOL_SOURCE, lib / "relic_protocol.py")
    written.append("lib/relic_protocol.py")
    if bundle_lib is not None:
        bundle = Path(bundle_lib)
        for names in BUNDLE_LIBS:
            found = [name for name in names if (bundle / name).exists()]
            if not found:
                also = " (nor %s)" % names[1] if len(names) > 1 else ""
                raise FileNotFoundError(
                    "%s not found in %s%s; allowed: the lib/ folder of the CircuitPython 9.x "
                    "bundle (adafruit-circuitpython-bundle-9.x-mpy-*/lib) or a folder of the "
                    "libraries' sources; fix --bundle-lib" % (names[0], bundle, also))
            for name in names:  # CircuitPython imports a .py before an .mpy: keep only one
                _remove(lib / name)
            source = bundle / found[0]
            target = lib / found[0]
            if source.is_dir():
                shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copyfile(source, target)
            written.append("lib/" + found[0])
    return written


def _remove(path):
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


def main(argv=None):
    parser = argparse.ArgumentParser(description="Assemble the relic hub's CIRCUITPY folder.")
    parser.add_argument("out_dir", help="folder to fill, e.g. build/CIRCUITPY or the drive itself")
    parser.add_argument("--bundle-lib", help="the bundle's lib/ folder (or the libraries' "
                        "sources), to copy adafruit_lis3dh and adafruit_bus_device")
    args = parser.parse_args(argv)
    try:
        written = build(args.out_dir, args.bundle_lib)
    except FileNotFoundError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    for name in written:
        print(name)
    if args.bundle_lib is None:
        print("now add adafruit_lis3dh: circup install adafruit_lis3dh (see firmware/README.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
