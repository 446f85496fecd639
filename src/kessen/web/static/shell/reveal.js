// Bringing a decision's glowing board places into view where the board scrolls (a phone's, a
// tablet's): once per decision, when some of them do not show, the board scrolls to show them
// all if they fit together (else to the nearest, when none shows), below any layer stuck to its
// top (Kōbō's open chain, TWGP's response window) and above the operation panel. TWGP's answer
// to an attack glows in the player's hand at the foot of the board, under the fold of a 360 px
// phone while the attack showed at its top; its build lights the pool on the board and the hand
// under the bar together.
import { $, $$ } from './dom.js';

// The board's places a decision's choices light: Kōbō's and Maken's glow, TWGP's picks.
const PLACES = '#table .selectable, #table .pickable';
const MARGIN = 8;

let revealedFor = null;

/** The nearest ancestor of `el` that scrolls vertically (null: none does). */
function scroller(el) {
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    if (p.scrollHeight <= p.clientHeight + 1) continue;
    const overflow = getComputedStyle(p).overflowY;
    if (overflow === 'auto' || overflow === 'scroll') return p;
  }
  return null;
}

/** The part of `box` that shows, [top, bottom] in the viewport: below any layer stuck to its
 *  top, above the operation panel where that lies over its foot (the phone's bar is fixed to
 *  the bottom of the screen, and the board's end follows its height a frame later). */
function visibleBand(box) {
  const r = box.getBoundingClientRect();
  let top = r.top;
  let bottom = r.bottom;
  const ops = $('#ops');
  const o = ops ? ops.getBoundingClientRect() : null; // fixed on the phone: no offsetParent
  if (o && o.height > 0 && o.top > r.top && o.left < r.right && o.right > r.left) bottom = Math.min(bottom, o.top);
  for (const layer of box.querySelectorAll('[data-layer]')) {
    if (!layer.offsetParent || getComputedStyle(layer).position !== 'sticky') continue;
    const q = layer.getBoundingClientRect();
    if (q.height > 0 && q.top <= top + 1) top = Math.max(top, q.bottom);
  }
  return [top, bottom];
}

/** Scroll the board to show all of the decision's glowing places when they fit and some do not
 *  show, else to the nearest when none shows; once per decision
 *  (`key`, the session and prompt; null: no decision of the player's now), the first time its
 *  places are lit, so a player's own scrolling is never undone. */
export function revealChoice(key) {
  if (!key || key === revealedFor) return;
  if (!$$(PLACES).some((e) => e.offsetParent)) return; // a later drawing may light them
  revealedFor = key;
  // Two frames on: the phone's board ends where the operation bar begins a frame after the
  // bar's new height (shell/sheet.js), and a board scrolled before would stop short.
  requestAnimationFrame(() => requestAnimationFrame(() => reveal(key)));
}

function reveal(key) {
  if (key !== revealedFor) return; // another decision since
  const places = $$(PLACES).filter((e) => e.offsetParent);
  const box = places.length ? scroller(places[0]) : null;
  if (!box) return;
  const [top, bottom] = visibleBand(box);
  const boxes = places.map((place) => place.getBoundingClientRect());
  const shows = (r) => r.top >= top - 1 && r.bottom <= bottom + 1;
  if (boxes.every(shows)) return;
  // All of them if they fit the band together (some may show already: TWGP's pool on the board
  // and the hand under the bar), else the nearest, unless one shows already.
  let want = {
    top: Math.min(...boxes.map((r) => r.top)), bottom: Math.max(...boxes.map((r) => r.bottom)),
  };
  if (want.bottom - want.top > bottom - top - 2 * MARGIN) {
    if (boxes.some(shows)) return;
    const away = (r) => (r.top < top ? top - r.top : r.bottom - bottom);
    want = boxes.reduce((a, b) => (away(b) < away(a) ? b : a));
  }
  box.scrollTop += want.top < top ? want.top - top - MARGIN : want.bottom - bottom + MARGIN;
}
