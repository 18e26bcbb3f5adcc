// The pages' one way to build the DOM (the Cleptómano page, the games page, the game night's
// panel): Dom.h(tag, props, ...children) an HTML element, Dom.s the same for SVG.  A prop
// "onx" adds a listener for "x", true sets an empty attribute, null/undefined/false none;
// children are elements or texts, and a text goes in as a text node, never as HTML.
"use strict";

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

  return { h, s, append };
})();
