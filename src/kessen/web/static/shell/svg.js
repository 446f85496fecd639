// Pictograms from a catalogue: an SVG text made safe to draw (no script, no foreign content,
// no style, no event handler, no link) and hidden from screen readers, for any game.

/** The element an SVG text draws (to be cloned for each use), or null for text that is not a
 *  well-formed SVG. Anything active is removed; the caller caches the result. */
export function safeSvg(svg) {
  if (!svg) return null;
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const root = doc.documentElement;
  if (!root || root.nodeName !== 'svg' || doc.querySelector('parsererror')) return null;
  for (const bad of root.querySelectorAll('script, foreignObject, style')) bad.remove();
  for (const el of [root, ...root.querySelectorAll('*')]) {
    for (const a of Array.from(el.attributes)) {
      if (/^on/i.test(a.name) || a.name === 'style' || /href$/i.test(a.name)) el.removeAttribute(a.name);
    }
  }
  root.setAttribute('aria-hidden', 'true');
  root.setAttribute('focusable', 'false');
  return document.importNode(root, true);
}
