// The CHAIN / RESOLVE lane beside the board: two lists of numbered links and an optional note.
// A game builds the links (what each names, whose it is, what CARD INFORMATION shows) and the
// lane draws them; the settings menu's highlight switch styles it (body.lane-hl).

import { $, afterDrawing, h, put } from './dom.js';
import { infoable } from './info.js';
import { me } from './seats.js';

/** One link of the lane: `link` {no, seat, kind, name, meta, negated, info}; opts.dim greys it. */
export function laneItem(link, opts = {}) {
  const mine = link.seat === me();
  const li = h('li', { class: `lane-link ${mine ? 'mine' : 'theirs'} kind-${link.kind}${link.negated ? ' negated' : ''}${opts.dim ? ' dim' : ''}` },
    h('span', { class: 'link-no', text: link.no }),
    h('span', { class: 'link-body' },
      h('span', { class: 'link-name', text: link.name }),
      h('span', { class: 'link-meta', text: link.meta })));
  if (link.info) infoable(li, link.info);
  return li;
}

/** Draw the lane: the open chain, the links resolved (the last one marked unless dimmed) and a
 *  note under them ('' for none). */
export function renderLane(chain, resolved, dim, note) {
  put($('#lane-chain'), ...chain.map((l) => laneItem(l)));
  put($('#lane-resolve'), ...resolved.map((l, i) => {
    const li = laneItem(l, { dim });
    if (i === resolved.length - 1 && !dim) li.classList.add('latest');
    return li;
  }));
  // The newest link is the last: a list laid out as a row (the phone's) shows its end.
  afterDrawing(() => {
    for (const list of [$('#lane-chain'), $('#lane-resolve')]) list.scrollLeft = list.scrollWidth;
  });
  const lane = $('#lane');
  lane.classList.toggle('has-chain', chain.length > 0);
  lane.classList.toggle('has-resolve', resolved.length > 0);
  const noteEl = $('#lane .lane-note');
  if (note) {
    if (!noteEl) lane.append(h('div', { class: 'lane-note', text: note }));
    else noteEl.textContent = note;
  } else if (noteEl) noteEl.remove();
}
