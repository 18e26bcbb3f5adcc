"""Phones at the table: the phone companion's page in a real headless Chromium.

Debian's ``chromium`` runs under Playwright's ``playwright-core`` (npm, pinned in sim/browser/;
``make browser`` installs it) through ``sim/browser/driver.mjs``, which takes one JSON step a
line.  :class:`Browser` starts it in a child process; :meth:`Browser.phone` opens a phone (its
own browser context, so its own cookies: a paired phone and a watching one are different
phones).  Every step waits a bounded time for its answer and raises :class:`BrowserError` with
the browser's own words when it fails, so a test fails on the step that went wrong::

    with Browser() as browser:
        ben = browser.phone("ben", 390, 844)
        ben.goto("http://127.0.0.1:8080/")
        ben.click("#watch")
        ben.wait("#live .phase", text="MUSEUM READY")

Nothing here downloads a browser: without chromium, node or the npm package, :func:`missing`
says which one is missing and how to install it.
"""

import json
import queue
import shutil
import subprocess
import threading
from pathlib import Path

from rig.core.errors import RigError

REPO = Path(__file__).resolve().parent.parent
BROWSER_DIR = REPO / "sim" / "browser"
DRIVER = BROWSER_DIR / "driver.mjs"
PACKAGE = BROWSER_DIR / "node_modules" / "playwright-core"
AXE = BROWSER_DIR / "node_modules" / "axe-core"
CHROMIUM = "/usr/bin/chromium"
STEP_TIMEOUT_S = 10.0         # what one step may take in the browser (a loaded machine)
START_TIMEOUT_S = 30.0        # chromium's first start on a loaded machine


class BrowserError(RigError):
    """A browser step failed (an element never appeared, a click found nothing...)."""


def node_path():
    return shutil.which("node")


def cannot_exist():
    """Why no browser can run on this machine (no chromium, no Node.js), in words with the
    fix; None when both are there.  A test skips for this reason only."""
    if not Path(CHROMIUM).exists():
        return "%s not found: install Debian's chromium (apt-get install chromium)" % CHROMIUM
    if node_path() is None:
        return "node not found: install Node.js (apt-get install nodejs npm)"
    return None


def missing():
    """Why the browser cannot run here, in words with the fix; None when it can."""
    if cannot_exist() is not None:
        return cannot_exist()
    if not PACKAGE.is_dir():
        return "playwright-core is not installed in sim/browser: run `make browser` (npm ci)"
    if not AXE.is_dir():
        return "axe-core is not installed in sim/browser: run `make browser` (npm ci)"
    return None


class Browser:
    """One headless Chromium in a child process, steered step by step."""

    def __init__(self, step_timeout_s=STEP_TIMEOUT_S):
        problem = missing()
        if problem is not None:
            raise BrowserError(problem)
        self.step_timeout_s = step_timeout_s
        self._proc = subprocess.Popen(
            [node_path(), str(DRIVER), "--chromium", CHROMIUM,
             "--step-timeout-ms", str(int(step_timeout_s * 1000))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, encoding="utf-8", cwd=BROWSER_DIR)
        self._answers = queue.Queue()
        self._stderr = []
        threading.Thread(target=self._read, args=(self._proc.stdout, self._answers.put),
                         name="browser-out", daemon=True).start()
        threading.Thread(target=self._read, args=(self._proc.stderr, self._stderr.append),
                         name="browser-err", daemon=True).start()
        try:
            self.version = self._answer(START_TIMEOUT_S)["ready"]
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _read(stream, put):
        for line in stream:
            put(line)
        put(None)

    def _answer(self, timeout_s):
        try:
            line = self._answers.get(timeout=timeout_s)
        except queue.Empty:
            raise BrowserError("the browser gave no answer within %g s" % timeout_s) from None
        if line is None:
            raise BrowserError("the browser stopped (exit status %s): %s" % (
                self._proc.poll(), "".join(self._stderr[-20:]).strip() or "no message"))
        answer = json.loads(line)
        if not answer.get("ok"):
            raise BrowserError(answer.get("error", "the step failed"))
        return answer

    def step(self, op, **fields):
        """Run one step and return the browser's answer (a dict)."""
        timeout_s = fields.get("timeout_ms", self.step_timeout_s * 1000) / 1000.0
        self._proc.stdin.write(json.dumps(dict(op=op, **fields)) + "\n")
        self._proc.stdin.flush()
        try:
            return self._answer(timeout_s + 3.0)
        except BrowserError as exc:
            raise BrowserError("%s %s: %s" % (op, json.dumps(fields), exc)) from None

    def phone(self, name, width=390, height=844, mobile=True, keep_received=False,
              locale="en-GB"):
        """A new phone (its own cookies) with a ``width`` x ``height`` CSS-pixel screen;
        ``keep_received``: it keeps what the rig sends it, for :meth:`Phone.received`;
        ``locale``: its browser's language (what its Accept-Language asks for)."""
        self.step("open", phone=name, width=width, height=height, mobile=mobile,
                  keep_received=keep_received, locale=locale)
        return Phone(self, name)

    def close(self, timeout_s=10.0):
        """Close the browser (end of input), killing it if it does not go in time."""
        proc = self._proc
        if proc.poll() is None:
            try:
                proc.stdin.close()
            except OSError:
                pass
            try:
                proc.wait(timeout_s)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout_s)
        return proc.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Phone:
    """One phone's page: each method is one browser step."""

    def __init__(self, browser, name):
        self.browser = browser
        self.name = name

    def _step(self, op, **fields):
        return self.browser.step(op, phone=self.name, **fields)

    def goto(self, url):
        self._step("goto", url=url)
        return self

    def click(self, selector):
        self._step("click", selector=selector)
        return self

    def fill(self, selector, value):
        self._step("fill", selector=selector, value=value)
        return self

    def select(self, selector, label):
        """Choose the option of the select ``selector`` that shows ``label``."""
        self._step("select", selector=selector, label=label)
        return self

    def wait(self, selector, text=None, timeout_s=None, state="visible"):
        """Wait until ``selector`` is visible (holding ``text`` if given); its text."""
        fields = dict(selector=selector, state=state)
        if text is not None:
            fields["text"] = text
        if timeout_s is not None:
            fields["timeout_ms"] = int(timeout_s * 1000)
        return self._step("wait", **fields).get("text")

    def gone(self, selector, timeout_s=None):
        """Wait until nothing matching ``selector`` is visible."""
        return self.wait(selector, timeout_s=timeout_s, state="hidden")

    def texts(self, selector):
        return self._step("texts", selector=selector)["texts"]

    def enabled(self, selector):
        return self._step("enabled", selector=selector)["value"]

    def scroll(self, selector):
        """Scroll ``selector`` to the top of the screen."""
        self._step("scroll", selector=selector)
        return self

    def boxes(self, selector):
        """``{"x", "y", "width", "height", "text"}`` of every visible match, in CSS pixels."""
        return self._step("boxes", selector=selector)["boxes"]

    def width(self):
        """``{"page": ..., "screen": ...}``: how wide the page is drawn, and the screen."""
        return self._step("width")

    def title(self):
        return self._step("title")["value"]

    def lang(self):
        """The page's language, as its ``<html lang>`` says."""
        return self._step("lang")["value"]

    def overflowing(self, selector="body"):
        """Every visible text element under ``selector`` whose words do not fit its box, and
        the page itself if it scrolls sideways (``[{"tag", "id", "text", ...}]``)."""
        return self._step("overflowing", selector=selector)["found"]

    def cut_words(self, selector="body"):
        """Every word of a visible text split over two lines (``"Am/élie"``) and every empty
        input whose placeholder is wider than its room (``[{"kind": "word" or "placeholder",
        "word", "tag", "id", "text", ...}]``)."""
        return self._step("cut_words", selector=selector)["found"]

    def download(self, selector, path):
        """Click ``selector`` and save what it downloads at ``path``; the suggested name."""
        return self._step("download", selector=selector, path=str(path))["suggested"]

    def screenshot(self, path, full=False):
        self._step("screenshot", path=str(path), full=full)
        return Path(path)

    def axe(self):
        """axe-core's violations of WCAG 2.0-2.2 A and AA on the page as it is now (``[{"id",
        "impact", "help", "nodes": [{"target", "html", "why"}]}]``; empty: none)."""
        return self._step("axe", timeout_ms=int(max(self.browser.step_timeout_s, 30) * 1000))["violations"]

    def evaluate(self, script, arg=None):
        """Run the JavaScript function ``script`` (its source) in the page with ``arg``; its
        answer."""
        return self._step("evaluate", script=script, arg=arg)["value"]

    def press(self, key):
        """Press ``key`` ("Tab", "Escape"...) where the focus is."""
        self._step("press", key=key)
        return self

    def focus(self, selector):
        self._step("focus", selector=selector)
        return self

    def focused(self):
        """What has the focus (``{"tag", "id", "text", "label", "player", "connected"}``), or
        None for the page itself."""
        return self._step("focused")["value"]

    def received(self):
        """The texts the rig sent the page (API answers and live pushes) since the last call;
        a phone opened with ``keep_received``."""
        return self._step("received")["texts"]

    def errors(self):
        """The page's uncaught errors, console errors and requests to any host but the rig's
        so far."""
        return self._step("errors")["errors"]


class PhoneTable:
    """The rig on a simulated table in real time (:class:`sim.harness.RealTimeHarness`), with
    its web face serving the phones on 127.0.0.1 (a free port) and a screen that keeps what it
    shows (:class:`rig.shell.faces.MemoryDisplay`, read for the pairing code as a guard reads
    the rig's screen).  ``overrides`` go to the harness (players, level...)::

        with PhoneTable(tmp_path) as rig:
            phone.goto(rig.url)
            code = rig.screen.phones.code
    """

    def __init__(self, recordings_dir, config=None, **overrides):
        from rig.shell.config import WebConfig, load_config
        from rig.shell.faces import Faces, MemoryDisplay
        from rig.web.face import WebFace
        from .harness import RealTimeHarness
        self.config = config or load_config(None)
        self.memory = MemoryDisplay(keep=50)
        self.web = WebFace(WebConfig(bind=("127.0.0.1",), port=0), recordings_dir)
        self.table = RealTimeHarness(self.config, display=Faces(self.memory, self.web),
                                     recordings_dir=recordings_dir, phones=self.web.pairing,
                                     **overrides)

    @property
    def url(self):
        return self.web.pairing.url

    @property
    def screen(self):
        """What the rig's own screen shows now (the newest snapshot)."""
        return self.table.rig.scoreboard()

    def paired(self, chromium, name, lang="en", phone=None, size=(390, 844)):
        """A phone of ``chromium`` (``phone``: its name in the browser, one per test; default
        ``name``) paired as ``name`` by the code on the rig's screen, its page in ``lang``."""
        page = chromium.phone(phone or name, *size)
        page.goto(self.url + "?lang=" + lang)
        page.wait("#pair-code")
        page.fill("#pair-code", self.screen.phones.code).fill("#pair-name", name)
        page.click("#pair-go")
        page.wait("#who", text=name)
        return page

    def start(self):
        self.table.start()
        self.web.start(self.table.rig)
        return self

    def stop(self, timeout_s=3.0):
        web_stopped = self.web.stop(timeout_s)
        return self.table.stop(timeout_s) and web_stopped

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
