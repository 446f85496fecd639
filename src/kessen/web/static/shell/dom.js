// DOM helpers of every UI file: query ($, $$), build an element (h), replace children (put).

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

export function h(tag, props, ...kids) {
  const e = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v == null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k === 'dataset') Object.assign(e.dataset, v);
      else if (k === 'style') e.style.cssText = String(v); // CSSOM: allowed by the CSP, unlike a style attribute
      else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const kid of kids.flat(3)) {
    if (kid == null || kid === false) continue;
    e.append(kid instanceof Node ? kid : String(kid));
  }
  return e;
}

/** Replace the children of `el`, skipping null/false (replaceChildren would print "null"). */
export function put(el, ...kids) {
  el.replaceChildren(...kids.flat(3).filter((k) => k != null && k !== false));
  return el;
}

const drawnReads = [];

/** Run `read` once the whole render has written the page: a microtask after the task that
 *  drew it, before the browser paints. A read of the page's geometry (a width, whether a place
 *  shows) between two writes makes the browser lay the page out there and again for the next
 *  read; gathered here they cost one layout per render. `read` may scroll, or set attributes
 *  that do not move anything. */
export function afterDrawing(read) {
  if (!drawnReads.length) queueMicrotask(runDrawnReads);
  drawnReads.push(read);
}

function runDrawnReads() {
  for (const read of drawnReads.splice(0)) read();
}

/** Scroll `el` into view inside its own scroll box `box` only. (`scrollIntoView` also scrolls
 *  every ancestor that can scroll, the fixed-height game screen among them, and would slide
 *  the whole table off its place.) */
export function revealIn(box, el) {
  if (!box || !el) return;
  const b = el.getBoundingClientRect();
  const o = box.getBoundingClientRect();
  if (b.top < o.top) box.scrollTop -= o.top - b.top + 6;
  else if (b.bottom > o.bottom) box.scrollTop += b.bottom - o.bottom + 6;
}
