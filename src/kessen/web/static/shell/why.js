// COM's reasons: the why panel shows COM's last decision and its top candidates, in the
// words of the game that made it (prompt names and action texts come from its module).

import { $, h, put } from './dom.js';
import { t } from './i18n.js';
import { anyActionText, promptLabel, rulesetOf } from './registry.js';
import { levelName, me, seatName } from './seats.js';
import { S } from './state.js';

function pct(x) {
  return `${Math.round(Math.max(0, Math.min(1, x || 0)) * 100)}%`;
}

/** The "why" panel: COM's last decision, and its top candidates when they reveal nothing. */
export function renderWhy(v) {
  const panel = $('#why-panel');
  panel.hidden = !!S.replay;
  if (S.replay) return;
  const w = v.com_why;
  const sig = JSON.stringify([S.settings.lang, v.session.id, me(), w]);
  if (sig === S.whySig) return;
  S.whySig = sig;
  const box = $('#why');
  if (!w) {
    put(box, h('p', { class: 'why-empty muted', text: t('why_none') }));
    return;
  }
  const kids = [
    h('div', { class: `why-who ${w.seat === me() ? 'mine' : 'theirs'}`, text: `${seatName(w.seat)} · ${levelName(w.level, true)}`, title: levelName(w.level) }),
    h('div', { class: 'why-action', title: `${t('why_chose')}: ${anyActionText(w.action, w.prompt, rulesetOf(v))}` },
      h('span', { class: 'muted', text: `${promptLabel(w.prompt, rulesetOf(v))} → ` }),
      h('strong', { text: anyActionText(w.action, w.prompt, rulesetOf(v)) })),
  ];
  const cands = w.candidates;
  if (cands && cands.length) {
    const most = Math.max(1, ...cands.map((c) => c.visits || 0));
    const signed = cands.some((c) => typeof c.value === 'number' && c.value < 0);
    const scale = (x) => (typeof x !== 'number' ? 0 : signed ? (x + 1) / 2 : x);
    kids.push(h('ol', { class: 'why-cands' }, cands.map((c) => h('li', {
      class: `why-cand${c.action === w.action ? ' chosen' : ''}`,
      title: `${anyActionText(c.action, w.prompt, rulesetOf(v))} — ${t('why_visits')} ${c.visits ?? '–'} · ${t('why_value')} ${c.value ?? '–'}`,
    },
    h('span', { class: 'why-label', text: anyActionText(c.action, w.prompt, rulesetOf(v)) }),
    h('span', { class: 'why-bars' },
      h('span', { class: 'bar visits' }, h('i', { style: `width:${pct((c.visits || 0) / most)}` })),
      h('span', { class: 'bar value' }, h('i', { style: `width:${pct(scale(c.value))}` }))),
    h('span', { class: 'why-nums', text: `${c.visits ?? '–'} · ${typeof c.value === 'number' ? c.value.toFixed(2) : '–'}` })))));
    kids.push(h('div', { class: 'why-legend muted' },
      h('span', { class: 'key visits' }), t('why_visits'), h('span', { class: 'key value' }), t('why_value')));
  } else if (!cands && (w.hidden || 0) > 0) {
    kids.push(h('p', { class: 'why-hidden', text: t('why_hidden') }));
  } else {
    kids.push(h('p', { class: 'why-none muted', text: t('why_no_cands') }));
  }
  put(box, ...kids);
}

