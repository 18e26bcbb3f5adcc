"""The wheel's build step: compile the message catalogs (``.po`` -> ``.mo``) into the build.

pyproject.toml names :class:`BuildPy` as setuptools' ``build_py``; it runs only while a wheel is
built (Babel is a build requirement there), never when the rig runs.  An editable install
(``make venv``) compiles the catalogs in place with ``python -m rig.catalogs compile`` instead.

The build runs in an isolated environment that has setuptools and Babel but not the project:
setuptools loads this module from its file, and ``rig`` is not importable there (nor should the
build depend on whatever ``rig`` the building interpreter happens to see).  So the catalogs'
compiler, ``rig/catalogs.py`` (stdlib at its top, Babel inside ``compile_po``), is loaded from
its file beside this one, never imported from ``sys.path``.

pip and ``python -m build`` build in the source tree, and setuptools' build_py reuses what an
earlier build left in ``build/lib``: it copies a module only when the source is newer, and
bdist_wheel packs every file it finds there.  So a ``build/`` left behind (by a failed build, or
a build of another commit) would put modules deleted since, or an old copy whose source came
back with an older time, into the next wheel.  The build's lib directory starts empty.
"""

import importlib.util
import shutil
from pathlib import Path

from setuptools.command.build_py import build_py

SOURCE = Path(__file__).resolve().parent            # rig/ of the tree being built


def load_catalogs(source: Path = SOURCE):
    """``rig/catalogs.py`` of the tree being built, loaded from its file as a module of its own
    (not ``rig.catalogs``: the build never puts a ``rig`` package into ``sys.modules``)."""
    path = source / "catalogs.py"
    spec = importlib.util.spec_from_file_location("_cleptomano_build_catalogs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPy(build_py):
    """setuptools' build_py, then every ``locale/*/LC_MESSAGES/*.po`` of the rig compiled to the
    ``.mo`` the rig reads, beside it in the build."""

    def run(self):
        editable = getattr(self, "editable_mode", False)
        if not editable and Path(self.build_lib).exists():
            shutil.rmtree(self.build_lib)         # build_py runs first: nothing else is there yet
        super().run()
        if editable:
            return
        catalogs = load_catalogs()
        built = Path(self.build_lib) / "rig"
        for po in catalogs.po_files(SOURCE):
            mo = built / po.relative_to(SOURCE).with_suffix(".mo")
            catalogs.compile_po(po, mo)
            self.announce("compiled %s" % mo, level=2)
