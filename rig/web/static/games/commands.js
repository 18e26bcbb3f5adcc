// What the games' command builders share.  Each game's commands, as the rig's API takes them
// (POST /api/game/command: one line of the game's recording without "t" and "by"; the rig
// stamps the time and adds the paired player; a roll is {"roll": true}, the rig rolls), are
// built by its own part of the page (rig/games/<game>/phone.js), which registers them in
// window.GameCommands under its name: the page knows no game by name.  Pure: the page and the
// tests (node) build the same bodies, so what a button sends is what the tests send.
"use strict";  // not words: the directive

const CommandKit = {
  // numbers, each once, in increasing order (a set of dice, places or skimmers)
  sorted: (numbers) => [...new Set(numbers.map(Number))].sort((a, b) => a - b),
};

if (typeof window !== "undefined") {                  // the page
  window.CommandKit = CommandKit;
  window.GameCommands = window.GameCommands || {};    // filled by each game's phone.js
}
if (typeof module !== "undefined") module.exports = CommandKit;         // node (the tests)
