"""The wheel's build step: compile the message catalogs (``.po`` -> ``.mo``) into the build.

pyproject.toml names :class:`BuildPy` as setuptools' ``build_py``; it runs only while a wheel is
built (Babel is a build requirement there), never when the rig runs.  An editable install
(``make venv``) compiles the catalogs in place with ``python -m rig.catalogs compile`` instead.
"""

from pathlib import Path

from setuptools.command.build_py import build_py


class BuildPy(build_py):
    """setuptools' build_py, then every ``locale/*/LC_MESSAGES/*.po`` of the rig compiled to the
    ``.mo`` the rig reads, beside it in the build."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        from rig.catalogs import compile_po
        source = Path(__file__).resolve().parent
        built = Path(self.build_lib) / "rig"
        for po in sorted(source.glob("**/locale/*/LC_MESSAGES/*.po")):
            mo = built / po.relative_to(source).with_suffix(".mo")
            compile_po(po, mo)
            self.announce("compiled %s" % mo, level=2)
