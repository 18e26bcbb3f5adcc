// Drives Debian's chromium, headless, through Playwright's playwright-core: one browser, any
// number of phones (each its own context, so its own cookies), steered one step at a time.
//
//   node sim/browser/driver.mjs [--chromium /usr/bin/chromium] [--step-timeout-ms 5000]
//
// Reads one JSON step a line on stdin and answers each with one JSON line on stdout:
// {"ok": true, ...} or {"ok": false, "error": "..."}.  The first line it prints says the browser
// is up ({"ok": true, "ready": "<version>"}).  sim/phone.py speaks this for the tests and the
// screenshot tool, so the test itself (in Python) can drive the simulated table between steps.
//
// It never downloads a browser: it starts the chromium it is given with the flags a root
// container needs, and Playwright gives every launch a fresh, temporary user-data dir.  Every
// step is bounded by --step-timeout-ms (or the step's own "timeout_ms"); end of input closes the
// browser.

import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { chromium } from "playwright-core";

// axe-core (npm, pinned beside playwright-core): the accessibility checker a step injects.
const AXE_SOURCE = fs.readFileSync(new URL("./node_modules/axe-core/axe.min.js", import.meta.url), "utf8");
//: What "axe" checks: WCAG 2.0, 2.1 and 2.2, levels A and AA (docs/games/phones.md).
const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"];

const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
  "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage"];

function usage(message) {
  process.stderr.write(`driver.mjs: ${message}\n` +
    "usage: node driver.mjs [--chromium PATH] [--step-timeout-ms MS]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const args = { chromium: "/usr/bin/chromium", stepTimeoutMs: 5000 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (value === undefined) usage(`${key} needs a value`);
    if (key === "--chromium") args.chromium = value;
    else if (key === "--step-timeout-ms") {
      args.stepTimeoutMs = Number(value);
      if (!Number.isInteger(args.stepTimeoutMs) || args.stepTimeoutMs < 100) {
        usage(`--step-timeout-ms ${value}: allowed: a whole number of milliseconds, at least 100`);
      }
    } else usage(`unknown option ${key}`);
  }
  if (!fs.existsSync(args.chromium)) {
    usage(`--chromium ${args.chromium} does not exist; install Debian's chromium ` +
      "(apt-get install chromium)");
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const phones = new Map();   // name -> {context, page, errors: [...], dialogs: [...]}

function phone(name) {
  const p = phones.get(name);
  if (!p) throw new Error(`no phone named ${JSON.stringify(name)}; open it with {"op": "open"}`);
  return p;
}

// Each step's work; what it returns is merged into the answer.
const STEPS = {
  async open(browser, step) {
    if (phones.has(step.phone)) throw new Error(`phone ${JSON.stringify(step.phone)} is open already`);
    const context = await browser.newContext({
      viewport: { width: step.width ?? 390, height: step.height ?? 844 },
      deviceScaleFactor: step.scale ?? 1,
      isMobile: step.mobile ?? true,
      hasTouch: step.mobile ?? true,
      acceptDownloads: true,
      locale: step.locale ?? "en-GB",     // the browser's Accept-Language
    });
    const page = await context.newPage();
    const entry = { context, page, errors: [], host: null, received: [] };
    page.on("pageerror", (err) => entry.errors.push(String(err)));
    // The page's own console errors; not the browser's network log of a refused request (a
    // wrong pairing code is answered 403, a refused command 409: the page shows the reason).
    page.on("console", (msg) => {
      if (msg.type() === "error" && !msg.text().startsWith("Failed to load resource:")) {
        entry.errors.push(msg.text());
      }
    });
    // Everything the page needs is served by the rig: a request anywhere else is an error.
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.protocol !== "data:" && url.host !== entry.host) {
        entry.errors.push(`the page asked another host for ${request.url()}`);
      }
    });
    // What the rig sends the page (its API answers and live pushes), kept when the phone is
    // opened with "keep_received", for a test that proves the page was never told a secret.
    if (step.keep_received) {
      page.on("websocket", (ws) => ws.on("framereceived", (frame) => entry.received.push(frame.payload)));
      page.on("response", (response) => {
        if (new URL(response.url()).pathname.startsWith("/api/")) {
          entry.received.push(response.text().catch(() => ""));
        }
      });
    }
    phones.set(step.phone, entry);
    return {};
  },
  async goto(_, step, p, timeout) {
    p.host = new URL(step.url).host;     // the rig's: the only host the page may ask
    await p.page.goto(step.url, { timeout, waitUntil: "load" });
    return {};
  },
  async click(_, step, p, timeout) {
    await p.page.locator(step.selector).first().click({ timeout });
    return {};
  },
  async fill(_, step, p, timeout) {
    await p.page.locator(step.selector).first().fill(String(step.value), { timeout });
    return {};
  },
  // Choose the option a select shows as step.label (as a player picks it by its words).
  async select(_, step, p, timeout) {
    await p.page.locator(step.selector).first().selectOption({ label: String(step.label) }, { timeout });
    return {};
  },
  // Wait until an element matching the selector is visible (and holds step.text, if given).
  async wait(_, step, p, timeout) {
    let locator = p.page.locator(step.selector);
    if (step.text !== undefined) locator = locator.filter({ hasText: step.text });
    await locator.first().waitFor({ state: step.state ?? "visible", timeout });
    return step.state === "hidden" || step.state === "detached" ? {} :
      { text: await locator.first().textContent({ timeout }) };
  },
  async texts(_, step, p) {
    return { texts: await p.page.locator(step.selector).allTextContents() };
  },
  async enabled(_, step, p, timeout) {
    return { value: await p.page.locator(step.selector).first().isEnabled({ timeout }) };
  },
  // Scroll so the element's top is at the top of the screen (below the page's sticky bar).
  async scroll(_, step, p, timeout) {
    await p.page.locator(step.selector).first().evaluate((el) => el.scrollIntoView({ block: "start" }),
      null, { timeout });
    return {};
  },
  // The boxes (CSS pixels) of every visible element matching the selector.
  async boxes(_, step, p) {
    const boxes = await p.page.locator(step.selector).evaluateAll((els) => els
      .filter((el) => el.checkVisibility())
      .map((el) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height, text: el.textContent.trim() };
      }));
    return { boxes };
  },
  // How wide the page is drawn against the screen it is on: wider is a sideways scroll.
  async width(_, step, p) {
    return await p.page.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: window.innerWidth }));
  },
  async title(_, step, p) {
    return { value: await p.page.title() };
  },
  // The page's language (<html lang>).
  async lang(_, step, p) {
    return { value: await p.page.evaluate(() => document.documentElement.lang) };
  },
  // Every visible element under step.selector that holds text of its own and whose text does
  // not fit its box: drawn wider than the box (scrollWidth > clientWidth, a word cut or spilling
  // out sideways) or taller (a one-line control whose words wrapped out of it).
  async overflowing(_, step, p) {
    return { found: await p.page.locator(step.selector ?? "body").first().evaluate((root) => {
      const out = [];
      for (const el of [root, ...root.querySelectorAll("*")]) {
        if (!el.checkVisibility || !el.checkVisibility()) continue;
        const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        // Words for a screen reader only (.sr-only, docs/games/phones.md) are never drawn.
        if (!own || el.closest("svg, .sr-only")) continue;
        const style = getComputedStyle(el);
        if (style.display === "inline") continue;           // measured by its block
        if (el.scrollWidth > el.clientWidth + 1 ||
            (style.overflowY !== "visible" && el.scrollHeight > el.clientHeight + 1)) {
          out.push({ tag: el.tagName.toLowerCase(), id: el.id, cls: el.className,
            text: el.textContent.trim().slice(0, 80), scroll: el.scrollWidth, client: el.clientWidth });
        }
      }
      const page = document.documentElement;
      if (page.scrollWidth > window.innerWidth + 1) {
        out.push({ tag: "html", text: "the page scrolls sideways", scroll: page.scrollWidth,
          client: window.innerWidth });
      }
      return out;
    }) };
  },
  // Every word cut inside (issue 30): a word of a visible text split over two lines (its
  // Range has rects on different lines: "Am/élie"), and every input whose placeholder is wider
  // than the room inside it ("Nombre de un jugac…").  A word may still overflow its box: that is
  // `overflowing`'s to find.
  async cut_words(_, step, p) {
    return { found: await p.page.locator(step.selector ?? "body").first().evaluate((root) => {
      const out = [];
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || el.closest("svg, script, style, .sr-only") || !el.checkVisibility || !el.checkVisibility()) continue;
        const text = node.textContent;
        for (const m of text.matchAll(/[^\s\-\u2010-\u2014/]+/gu)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
            .map((r) => Math.round(r.bottom)));
          if (lines.size > 1) {
            out.push({ kind: "word", word: m[0], tag: el.tagName.toLowerCase(), id: el.id,
              cls: String(el.className), text: el.textContent.trim().slice(0, 80) });
          }
        }
      }
      const canvas = document.createElement("canvas").getContext("2d");
      for (const input of root.querySelectorAll("input[placeholder]")) {
        if (!input.checkVisibility || !input.checkVisibility() || input.value) continue;
        const style = getComputedStyle(input);
        canvas.font = style.font;
        const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        const wide = canvas.measureText(input.placeholder).width;
        if (wide > room + 1) {
          out.push({ kind: "placeholder", word: input.placeholder, tag: "input", id: input.id,
            cls: String(input.className), text: input.placeholder, wide: Math.ceil(wide), room });
        }
      }
      return out;
    }) };
  },
  // axe-core over the page as it is now (WCAG 2.x A and AA, and the accessible name of a
  // control holding the words it shows, WCAG 2.5.3): every violation, each with the elements
  // it found.  The page is checked whole, hidden parts left out as a reader never meets them.
  async axe(_, step, p) {
    // Evaluated through the DevTools protocol, as the page's own CSP (default-src 'self') would
    // refuse an injected <script>; the page under test keeps its policy.
    if (!(await p.page.evaluate(() => Boolean(window.axe)))) await p.page.evaluate(AXE_SOURCE + "\n;true");
    const result = await p.page.evaluate(async (tags) => {
      const r = await window.axe.run(document, { runOnly: { type: "tag", values: tags },
        rules: { "label-content-name-mismatch": { enabled: true } }, resultTypes: ["violations"] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map((n) => ({ target: n.target.join(" "), html: n.html.slice(0, 160),
          why: n.failureSummary })) }));
    }, AXE_TAGS);
    return { violations: result };
  },
  // A function's source, run in the page with step.arg; what it returns (JSON).
  async evaluate(_, step, p) {
    return { value: await p.page.evaluate(`(${step.script})(${JSON.stringify(step.arg ?? null)})`) };
  },
  // A key pressed on the keyboard ("Tab", "Escape", "Enter"), where the focus is.
  async press(_, step, p) {
    await p.page.keyboard.press(step.key);
    return {};
  },
  // Put the focus on the element, as a reader who tabbed to it.
  async focus(_, step, p, timeout) {
    await p.page.locator(step.selector).first().focus({ timeout });
    return {};
  },
  // What the focus is on: a short description of document.activeElement.
  async focused(_, step, p) {
    return { value: await p.page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return null;
      return { tag: el.tagName.toLowerCase(), id: el.id, text: el.textContent.trim(),
        label: el.getAttribute("aria-label"), player: el.dataset.player ?? null,
        connected: el.isConnected };
    }) };
  },
  async download(_, step, p, timeout) {
    const [download] = await Promise.all([
      p.page.waitForEvent("download", { timeout }),
      p.page.locator(step.selector).first().click({ timeout }),
    ]);
    fs.mkdirSync(path.dirname(step.path), { recursive: true });
    await download.saveAs(step.path);
    return { suggested: download.suggestedFilename() };
  },
  async screenshot(_, step, p, timeout) {
    fs.mkdirSync(path.dirname(step.path), { recursive: true });
    await p.page.screenshot({ path: step.path, fullPage: step.full ?? false, timeout,
      animations: "disabled", caret: "hide" });
    return {};
  },
  // Everything the rig sent the page since the last time this was asked, oldest first (a
  // phone opened with "keep_received").
  async received(_, step, p) {
    const texts = await Promise.all(p.received.splice(0).map((r) => Promise.resolve(r)));
    return { texts: texts.map(String) };
  },
  // The page's own errors (uncaught exceptions, console errors, requests to another host)
  // since the phone opened.
  async errors(_, step, p) {
    return { errors: p.errors.slice() };
  },
};

async function run(browser, step) {
  const work = STEPS[step.op];
  if (!work) throw new Error(`unknown op ${JSON.stringify(step.op)}; allowed: ${Object.keys(STEPS).join(", ")}`);
  const timeout = step.timeout_ms ?? args.stepTimeoutMs;
  const p = step.op === "open" ? null : phone(step.phone);
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${step.op} took longer than ${timeout} ms`)), timeout + 1000);
  });
  try {
    return await Promise.race([work(browser, step, p, timeout), limit]);
  } finally {
    clearTimeout(timer);
  }
}

function answer(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

const browser = await chromium.launch({ executablePath: args.chromium, headless: true,
  args: FLAGS, timeout: 30000 });
answer({ ok: true, ready: browser.version() });
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let step;
  try {
    step = JSON.parse(line);
  } catch (err) {
    answer({ ok: false, error: `not a JSON step: ${err.message}` });
    continue;
  }
  try {
    answer({ ok: true, ...(await run(browser, step)) });
  } catch (err) {
    // Playwright colours its call log for a terminal; the answer is read by a test.
    const words = String(err.message ?? err).replace(/\x1b\[[0-9;]*m/g, "");
    // The first line says what failed, the call log's last lines why.
    const lines = words.split("\n");
    answer({ ok: false, error: lines.length > 8 ? [...lines.slice(0, 2), "  ...", ...lines.slice(-5)].join("\n") : words });
  }
}
await browser.close();
