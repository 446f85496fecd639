// What a person would find wrong with the screen as it shows now (read by tests/web/driver.py).
// Only what can be seen counts: an element hidden, in a closed drawer or folded section, or
// scrolled out of its box is left out. Returns lists of faults, each named by its place:
//  small    text drawn smaller than 11 CSS px (a transform's scale included);
//  tiny     a target (button, link, field with its label, glowing place) smaller than
//           24 × 24 CSS px (a link inside a sentence or a glossary word excepted, as WCAG
//           2.5.8's inline exception does);
//  overlap  two targets whose visible boxes intersect (one inside the other is fine; what
//           lies over the board on purpose is a layer, marked [data-layer]: a dialog, a
//           drawer, the phone's chain strip; targets are compared within their own layer);
//  clipped  a name (an element whose class says "name") cut short by its box, or a drop-down
//           list (a select) whose chosen option's words do not fit in it.
() => {
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const visible = (e) => {
    if (!e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true, contentVisibilityAuto: true })) return null;
    let r = e.getBoundingClientRect();
    let box = { left: Math.max(r.left, 0), top: Math.max(r.top, 0), right: Math.min(r.right, vw), bottom: Math.min(r.bottom, vh) };
    for (let p = e.parentElement; p && p !== document.documentElement; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const q = p.getBoundingClientRect();
        box = { left: Math.max(box.left, q.left), top: Math.max(box.top, q.top), right: Math.min(box.right, q.right), bottom: Math.min(box.bottom, q.bottom) };
      }
    }
    return box.right - box.left > 0.5 && box.bottom - box.top > 0.5 ? box : null;
  };
  const place = (e) => {
    const path = [];
    for (let x = e; x && x !== document.body && path.length < 4; x = x.parentElement) {
      path.push(x.id ? `#${x.id}` : (String(x.className).split(' ')[0] || x.tagName.toLowerCase()));
    }
    return `${path.join(' < ')} "${(e.textContent || e.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ').slice(0, 16)}"`;
  };
  const hiddenForReaders = (e) => !!e.closest('.sr-only');
  // A transform's scale: the drawn width over the laid-out one (offsetWidth is rounded to a
  // whole pixel, so a difference under a pixel is no scale).
  const scale = (e) => {
    const r = e.getBoundingClientRect();
    return e.offsetWidth && Math.abs(r.width - e.offsetWidth) > 1 ? r.width / e.offsetWidth : 1;
  };

  const small = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const e = t.parentElement;
    if (!t.textContent.trim() || !e || seen.has(e)) continue;
    seen.add(e);
    if (hiddenForReaders(e) || !visible(e)) continue;
    const px = parseFloat(getComputedStyle(e).fontSize) * scale(e);
    if (px < 10.95) small.push(`${place(e)} ${px.toFixed(1)} px`);
  }

  const TARGETS = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex]:not([tabindex="-1"]), .selectable, [data-act]';
  const targets = [];
  for (const e of document.querySelectorAll(TARGETS)) {
    if (e.disabled || hiddenForReaders(e)) continue;
    // A glossary word is text in a label, title or sentence that explains itself on focus,
    // not a control: sized and placed by its text (WCAG 2.5.8's inline exception).
    if (e.classList.contains('term')) continue;
    const box = visible(e);
    if (box) targets.push({ e, box, layer: e.closest('[data-layer]') });
  }
  const tiny = [];
  for (const { e } of targets) {
    // A link inside a sentence is sized by its text (WCAG 2.5.8's inline exception).
    if (e.tagName === 'A' && getComputedStyle(e).display === 'inline') continue;
    // A field's label is pressed as the field itself: their boxes together are the target.
    const boxes = [e, ...(e.labels || [])].map((x) => x.getBoundingClientRect());
    const r = {
      width: Math.max(...boxes.map((b) => b.right)) - Math.min(...boxes.map((b) => b.left)),
      height: Math.max(...boxes.map((b) => b.bottom)) - Math.min(...boxes.map((b) => b.top)),
    };
    if (r.width < 23.5 || r.height < 23.5) tiny.push(`${place(e)} ${r.width.toFixed(0)}×${r.height.toFixed(0)}`);
  }
  const overlap = [];
  for (let i = 0; i < targets.length; i++) {
    for (let j = i + 1; j < targets.length; j++) {
      const a = targets[i];
      const b = targets[j];
      if (a.layer !== b.layer || a.e.contains(b.e) || b.e.contains(a.e)) continue;
      const w = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
      const h = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
      if (w > 1 && h > 1) overlap.push(`${place(a.e)} × ${place(b.e)} (${w.toFixed(0)}×${h.toFixed(0)})`);
    }
  }
  const clipped = [];
  for (const e of document.querySelectorAll('[class*="name"]')) {
    if (!visible(e) || hiddenForReaders(e)) continue;
    if (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 2) {
      const s = getComputedStyle(e);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible' || s.textOverflow === 'ellipsis') clipped.push(place(e));
    }
  }
  const ruler = document.createElement('canvas').getContext('2d');
  for (const e of document.querySelectorAll('select')) {
    // Every select drawn, scrolled into view or not: its words are cut wherever it is.
    if (!e.checkVisibility({ checkVisibilityCSS: true }) || e.multiple || e.selectedIndex < 0) continue;
    const s = getComputedStyle(e);
    ruler.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const words = ruler.measureText(e.options[e.selectedIndex].text).width;
    // The room for the words: the box less its padding and the drop-down arrow (about 18 px).
    const room = e.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - 18;
    if (words > room + 1) clipped.push(`${place(e)} "${e.options[e.selectedIndex].text}" ${words.toFixed(0)} > ${room.toFixed(0)} px`);
  }
  return { small, tiny, overlap, clipped };
}
