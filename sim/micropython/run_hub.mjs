// Runs the relic hub's CIRCUITPY drive under the official MicroPython WebAssembly build, the way
// the Pico runs it: boot.py, then code.py, on a heap the size of the Pico's.
//
//   node sim/micropython/run_hub.mjs --drive DIR --scenario FILE --frames OUT --heap BYTES
//
// DIR is a folder laid out like the CIRCUITPY drive (firmware/build.py plus the driver libraries
// in lib/); FILE the virtual hardware (see circuitpython/virtual_pico.py); OUT receives every byte
// the firmware wrote to usb_cdc.data; BYTES is the heap (sim/micropython_hub.py passes the
// Pico's).  sim/micropython_hub.py builds all of these.  Prints one JSON object: what the run measured, the
// firmware's console lines and, if the firmware raised, its traceback (exit status 1).
//
// The WebAssembly build collects garbage only between calls from JavaScript, and grows its heap
// instead of failing while Python runs.  So this runner calls in small steps: each import of
// code.py's big modules, then code.py's start(), then its step() once per pass of the loop;
// the heap is collected and measured between steps, and a heap that had to grow is this tier's
// MemoryError (virtual_pico.watch_heap).  Sizes are those of a 32-bit port like the RP2040's,
// but floats are boxed doubles here where CircuitPython stores them in the object word, so the
// firmware's garbage per step is larger here than on the Pico: a pass is on the safe side.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BUILTINS_DIR = "/circuitpython"; // the stand-ins play CircuitPython's built-in modules
// CircuitPython's sys.path, behind the built-ins.
const SYS_PATH = [BUILTINS_DIR, "", "/", ".frozen", "/lib"];
// code.py's large imports, each imported (and its garbage collected) on its own first: the Pico
// collects whenever it must, this build only between calls.
const IMPORTS = ["relic_protocol", "relichub.hub", "adafruit_lis3dh"];
// Every pass of the loop sleeps until the next sample; a step that leaves the clock where it
// was this many times running is a firmware that no longer sleeps.
const MAX_STILL_STEPS = 1000;

function usage(message) {
  process.stderr.write(`run_hub.mjs: ${message}\n` +
    "usage: node run_hub.mjs --drive DIR --scenario FILE --frames OUT --heap BYTES\n");
  process.exit(2);
}

function parseArgs(argv) {
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    const value = argv[i + 1];
    if (value === undefined) usage(`${key} needs a value`);
    if (key === "--drive") args.drive = value;
    else if (key === "--scenario") args.scenario = value;
    else if (key === "--frames") args.frames = value;
    else if (key === "--heap") {
      args.heap = Number(value);
      if (!Number.isInteger(args.heap) || args.heap < 16384) {
        usage(`--heap ${value}: allowed: a whole number of bytes, at least 16384`);
      }
    } else usage(`unknown option ${key}`);
  }
  for (const key of ["drive", "scenario", "frames", "heap"]) {
    if (!args[key]) usage(`--${key} is required`);
  }
  if (!fs.existsSync(path.join(args.drive, "code.py"))) {
    usage(`--drive ${args.drive}: no code.py there; allowed: a folder made by firmware/build.py`);
  }
  return args;
}

// Copy a host folder into MicroPython's file system (skipping pip's *.dist-info and caches).
function copyTree(FS, from, to) {
  if (to !== "/" && !FS.analyzePath(to).exists) FS.mkdir(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.name.endsWith(".dist-info") || entry.name === "__pycache__") continue;
    const source = path.join(from, entry.name);
    const target = path.posix.join(to, entry.name);
    if (entry.isDirectory()) copyTree(FS, source, target);
    else FS.writeFile(target, fs.readFileSync(source));
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const consoleLines = [];
  const mp = await loadMicroPython({
    heapsize: args.heap,
    linebuffer: true,
    stdout: (line) => consoleLines.push(line),
    stderr: (line) => consoleLines.push(line),
  });
  copyTree(mp.FS, args.drive, "/");
  copyTree(mp.FS, path.join(HERE, "circuitpython"), BUILTINS_DIR);
  mp.FS.writeFile("/scenario.json", fs.readFileSync(args.scenario));

  const result = { heap_bytes: args.heap, console: consoleLines, error: null, steps: 0 };
  let pico = null;
  let gc = null;
  let phase = "power-on";
  const outOfHeap = (name) => new Error(`MemoryError: the ${args.heap}-byte heap ran out ` +
    `in ${name} (it had to grow)`);
  const measure = (name) => {
    gc.collect(); // only asks: the collection runs as the next call begins
    if (!pico.watch_heap(name)) throw outOfHeap(name);
  };
  try {
    gc = mp.pyimport("gc");
    const room = gc.mem_free() + gc.mem_alloc();
    mp.runPython(`import sys\nsys.path[:] = ${JSON.stringify(SYS_PATH)}`);
    pico = mp.pyimport("virtual_pico");
    pico.power_on("/scenario.json", "/usb-data.bin", room);
    measure(phase);
    phase = "boot.py";
    if (mp.FS.analyzePath("/boot.py").exists) pico.run_file("/boot.py"); // optional, as on a Pico
    pico.end_boot();
    measure(phase);
    for (const name of IMPORTS) {
      phase = `import ${name}`;
      mp.pyimport(name);
      measure(phase);
    }
    phase = "import code";
    const code = mp.pyimport("code");
    measure(phase);
    phase = "start()";
    const hub = code.start();
    measure(phase);
    phase = "step()";
    const endMs = pico.end_ms();
    // One proxy of each, for the whole loop: every attribute read from JavaScript makes a new
    // proxy, which holds its object on the Python heap until JavaScript lets it go.
    const runStep = pico.run_step;
    const step = code.step;
    let nowMs = 0;
    let still = 0;
    while (nowMs < endMs) {
      const before = nowMs;
      nowMs = runStep(step, hub);
      if (nowMs < 0) throw outOfHeap(`step() at ${before} ms`);
      result.steps += 1;
      still = nowMs === before ? still + 1 : 0;
      if (still >= MAX_STILL_STEPS) {
        throw new Error(`the virtual clock stood at ${nowMs} ms for ${still} passes of the ` +
          "loop: code.py's step() no longer sleeps");
      }
    }
    measure("end");
  } catch (error) {
    const text = error.message || String(error);
    result.error = text.includes("PowerOff")
      ? `in ${phase}: the firmware was still inside ${phase} when the power was cut, well ` +
        `after the scenario's end\n${text}`
      : `in ${phase}: ${text}`;
  }
  if (pico !== null) Object.assign(result, JSON.parse(pico.report()));
  if (mp.FS.analyzePath("/usb-data.bin").exists) {
    fs.writeFileSync(args.frames, mp.FS.readFile("/usb-data.bin"));
  }
  process.stdout.write(JSON.stringify(result) + "\n");
  process.exitCode = result.error === null ? 0 : 1;
}

await main();
