// The pages' one way to build the DOM (the one phone page and every game's part, the game night's
// panel, the leaderboard): Dom.h(tag, props, ...children) an HTML element, Dom.s the same for
// SVG.  A prop "onx" adds a listener for "x", true sets an empty attribute, null/undefined/false
// none; children are elements or texts, and a text goes in as a text node, never as HTML.
//
// And their words: t(code, params) says a code (rig/locale and each game's catalog, README
// "Languages") in this phone's language.  Words.ready resolves once the words are here (GET
// /api/words: the phone's cookie, else its browser's Accept-Language); a page renders after it.
// An element with data-t="code" gets the code's words as its text (data-t-placeholder,
// data-t-aria-label, data-t-title the same attribute), at load and at each change of language.
// Words.picker() is the language select; choosing one (POST /api/language sets the cookie)
// loads its words, fills the data-t elements and calls each Words.onChange(fn): the page
// re-renders, keeping its pairing (a cookie of its own) and what it shows.
"use strict";  // not words: the directive

window.Dom = (() => {
  const SVG = "http://www.w3.org/2000/svg";

  function setProps(el, props) {
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
      else el.setAttribute(key, value === true ? "" : String(value));
    }
  }

  function append(el, children) {
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(typeof child === "object" ? child : document.createTextNode(String(child)));
    }
  }

  const build = (el, props, children) => { setProps(el, props); append(el, children); return el; };
  const h = (tag, props, ...children) => build(document.createElement(tag), props, children);
  const s = (tag, props, ...children) => build(document.createElementNS(SVG, tag), props, children);

  // A control's identity across a rebuild: its tag and what it says and does (issue 30: a
  // rebuilt list of buttons must not throw the reader's focus back to the top of the page).
  const KEYS = ["id", "data-player", "data-laser", "data-place", "data-end", "data-toggles",
    "data-difficulty", "data-lasers", "data-corridor", "name", "aria-label"];
  function signature(el) {
    return [el.tagName, ...KEYS.map((k) => el.getAttribute(k)),
      el.closest("[data-toggles]") ? el.closest("[data-toggles]").dataset.toggles : null,
      el.textContent.trim()].join("\u0001");
  }
  const focusable = (root) => [...root.querySelectorAll(
    "button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1'])")];

  // rebuild() replaces what el holds; the focus, if it was inside, stays on the same control
  // (or the one now in its place, else el itself): never back to the top of the page.
  function keepFocus(el, rebuild) {
    const had = document.activeElement;
    if (!had || had === document.body || !el.contains(had)) {
      rebuild();
      return;
    }
    const sig = signature(had);
    const at = focusable(el).indexOf(had);
    rebuild();
    if (had.isConnected) return;
    const now = focusable(el);
    const same = now.find((c) => signature(c) === sig) ||
      now.find((c, i) => i === at && signature(c).split("\u0001")[0] === had.tagName);
    // The same control; disabled now (a command it sent was taken), the next one that is not.
    let target = same && !same.disabled ? same : null;
    if (!target && same) target = now.slice(now.indexOf(same)).find((c) => !c.disabled) || null;
    if (target) {
      target.focus({ preventScroll: true });
    } else {
      if (!el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
      el.focus({ preventScroll: true });
    }
  }

  // Text set only when it changed: a live region is not told the same words again.
  function put(el, words) {
    const text = words === null || words === undefined ? "" : String(words);
    if (el.textContent !== text) el.textContent = text;
  }

  return { h, s, append, keepFocus, put };
})();

window.Words = (() => {
  const WORDS_URL = "/api/words";
  const LANGUAGE_URL = "/api/language";
  const ATTRIBUTES = ["placeholder", "aria-label", "title", "alt"];
  let lang = "en";
  let languages = { en: "English" };   // not words: a language's own name
  let table = {};
  const listeners = [];
  const pickers = [];
  const formats = {};

  // The browser's Intl for this language ("pseudo" is English, accented; a variant such as
  // "es_AR" is written as BCP 47 has it, "es-AR").
  function locale() {
    return lang === "pseudo" ? "en" : lang.replace("_", "-");
  }

  function intl(kind, make) {
    const key = kind + ":" + lang;
    if (!(key in formats)) {
      try {
        formats[key] = make(locale());
      } catch (err) {
        formats[key] = null;
      }
    }
    return formats[key];
  }

  function say(value) {
    if (Array.isArray(value)) {
      const items = value.map(say);
      const list = intl("list", (l) => new Intl.ListFormat(l, { type: "conjunction" }));
      return list ? list.format(items) : items.join(", ");
    }
    if (typeof value === "number") {
      const number = intl("number", (l) => new Intl.NumberFormat(l));
      return number ? number.format(value) : String(value);
    }
    if (value && typeof value === "object" && typeof value.code === "string") {
      return t(value.code, value.params || {});     // a code the rig left unsaid
    }
    return value === null || value === undefined ? "" : String(value);
  }

  // The words of code in this phone's language, params filled in; the code itself when the
  // words have none (the catalog test makes sure a player never sees one).
  function t(code, params) {
    params = params || {};
    let entry = table[code];
    if (entry === undefined) return code;
    if (entry && typeof entry === "object") {
      let category = "other";
      if (typeof params.n === "number") {
        const rules = intl("plural", (l) => new Intl.PluralRules(l));
        if (rules) category = rules.select(params.n);
      }
      entry = entry[category] !== undefined ? entry[category] : entry.other;
      if (entry === undefined) return code;
    }
    return String(entry).replace(/\{(\w+)\}/g, (whole, name) =>
      Object.prototype.hasOwnProperty.call(params, name) ? say(params[name]) : whole);
  }

  // Every data-t element under root (the whole page by default) gets its words.
  function fill(root) {
    const base = root || document;
    for (const el of base.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
    for (const attr of ATTRIBUTES) {
      for (const el of base.querySelectorAll("[data-t-" + attr + "]")) {
        el.setAttribute(attr, t(el.getAttribute("data-t-" + attr)));
      }
    }
  }

  function apply(answer) {
    if (!answer || typeof answer.words !== "object") return false;
    lang = String(answer.language || "en");
    languages = answer.languages || languages;
    table = answer.words || {};
    document.documentElement.lang = locale();
    fill();
    for (const select of pickers) setOptions(select);
    return true;
  }

  async function load(url, init) {
    try {
      const response = await fetch(url, Object.assign({ credentials: "same-origin",
        headers: { "Accept": "application/json" } }, init || {}));
      if (!response.ok) return false;
      return apply(await response.json());
    } catch (err) {
      return false;       // the rig cannot be reached: the page shows its codes until it can
    }
  }

  function post(chosen) {
    return load(LANGUAGE_URL, { method: "POST",
      headers: { "Accept": "application/json", "Content-Type": "application/json" },
      body: JSON.stringify({ language: chosen }) });
  }

  // This phone reads chosen from now on: its words, the data-t elements, then each page's
  // re-render (Words.onChange).
  async function choose(chosen) {
    if (!(await post(chosen))) return false;
    for (const fn of listeners) {
      try {
        fn(lang);
      } catch (err) {
        console.error(err);
      }
    }
    return true;
  }

  function onChange(fn) {
    listeners.push(fn);
  }

  function setOptions(select) {
    const shown = Object.assign({}, languages);
    if (!(lang in shown)) shown[lang] = lang;        // the test language, when chosen
    select.replaceChildren(...Object.entries(shown).map(([code, name]) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      option.lang = code === "pseudo" ? "en" : code.replace("_", "-");
      return option;
    }));
    select.value = lang;
    select.setAttribute("aria-label", t("rig.phone.language"));
    select.title = t("rig.phone.language");
  }

  // A small select of the languages, each in its own name; choosing one switches the page.
  function picker() {
    const select = document.createElement("select");
    select.className = "language-picker";
    select.addEventListener("change", () => choose(select.value));
    setOptions(select);
    pickers.push(select);
    return select;
  }

  // A page opened as page?lang=ro reads Romanian from now on (as if picked); else the
  // phone's own language.
  const asked = new URLSearchParams(location.search).get("lang");
  const ready = (asked ? post(asked).then((ok) => ok || load(WORDS_URL)) : load(WORDS_URL))
    .then(() => lang);

  return {
    t, fill, choose, onChange, picker, ready,
    get language() { return lang; },
    get locale() { return locale(); },
    get languages() { return Object.assign({}, languages); },
  };
})();

window.t = window.Words.t;
// Marks a code written in a table, said later with t() (the catalog tools find it).
window.N_ = (code) => code;
