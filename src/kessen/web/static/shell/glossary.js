// The games' jargon, explained where it appears. Each ruleset's glossary (the server's
// /api/glossary/<id>, from the ruleset's data/glossary.toml) gives each word a short
// explanation in both languages. A game marks a word of its board with `term(key, text)`; the
// shell shows the explanation in one tooltip (#glossary-tip) on hover, keyboard focus or tap,
// and the rules screen lists the whole glossary (shell/help.js).

import { $, h } from './dom.js';
import { t } from './i18n.js';
import { fetchJson, S } from './state.js';

/** Loaded glossaries: `${ruleset}|${lang}` → Map(key → {term, text}); loads under way. */
const G = { loaded: new Map(), loading: new Map(), shown: null };

function slot(ruleset, lang) {
  return `${ruleset}|${lang}`;
}

/** The glossary of `ruleset` in `lang` (fetched once): a promise of [{key, term, text}]. */
export function ensureGlossary(ruleset, lang = S.settings.lang) {
  const k = slot(ruleset, lang);
  if (G.loaded.has(k)) return Promise.resolve([...G.loaded.get(k).entries()].map(([key, x]) => ({ key, ...x })));
  if (!G.loading.has(k)) {
    G.loading.set(k, fetchJson(`/api/glossary/${encodeURIComponent(ruleset)}?lang=${lang}`)
      .then((data) => {
        G.loaded.set(k, new Map(data.terms.map((x) => [x.key, { term: x.term, text: x.text }])));
        G.loading.delete(k);
        decorateTerms();
        return data.terms;
      })
      .catch((err) => { G.loading.delete(k); throw err; }));
  }
  return G.loading.get(k);
}

/** The ruleset on screen (the rules screen's while it is open; Kōbō, the first game, when a
 *  view does not say: as shell/registry.js reads it, without importing the games). */
function currentRuleset() {
  const help = document.body.dataset.help || '';
  if (document.body.dataset.screen === 'help' && help.startsWith('rules:')) return help.slice(6);
  return (S.view && S.view.ruleset) || 'kobo';
}

/** A glossary entry of the ruleset on screen (null while not loaded or unknown). */
export function glossaryEntry(key, ruleset = currentRuleset()) {
  const table = G.loaded.get(slot(ruleset, S.settings.lang));
  return (table && table.get(key)) || null;
}

/** A word of the game with its explanation on hover, focus or tap: `text` as written on the
 *  board (the glossary's word when omitted). */
export function term(key, text) {
  const ruleset = currentRuleset();
  const entry = glossaryEntry(key, ruleset);
  if (!entry) ensureGlossary(ruleset).catch(() => {});
  return h('span', {
    class: 'term',
    dataset: { term: key, ruleset, ...(text == null ? { auto: '1' } : {}) },
    text: text ?? (entry ? entry.term : key),
  });
}

/** After a render: the words whose text is the glossary's are filled in, and a word is
 *  focusable unless it sits inside a control (a button's label is read with the button). */
export function decorateTerms(root = document) {
  for (const el of root.querySelectorAll('.term[data-term]')) {
    const entry = glossaryEntry(el.dataset.term, el.dataset.ruleset || currentRuleset());
    if (el.dataset.auto && entry && el.textContent !== entry.term) el.textContent = entry.term;
    const nested = !!el.parentElement && !!el.parentElement.closest('button, a, [role="button"], .selectable, label, summary');
    if (nested) el.removeAttribute('tabindex');
    else if (el.getAttribute('tabindex') !== '0') el.setAttribute('tabindex', '0');
  }
}

function termOf(el) {
  return el && el.closest ? el.closest('.term[data-term]') : null;
}

function showTip(el) {
  const tip = $('#glossary-tip');
  const entry = glossaryEntry(el.dataset.term, el.dataset.ruleset || currentRuleset());
  if (!tip) return;
  if (!entry) {
    ensureGlossary(el.dataset.ruleset || currentRuleset()).then(() => { if (G.shown === el) showTip(el); }).catch(() => {});
    return;
  }
  G.shown = el;
  tip.replaceChildren(h('strong', { text: entry.term }), h('span', { text: entry.text }));
  tip.dataset.term = el.dataset.term;
  tip.hidden = false;
  const r = el.getBoundingClientRect();
  const tw = tip.offsetWidth;
  const th = tip.offsetHeight;
  const left = Math.max(6, Math.min(window.innerWidth - tw - 6, r.left + r.width / 2 - tw / 2));
  const below = r.bottom + 6 + th <= window.innerHeight;
  tip.style.left = `${left}px`;
  tip.style.top = `${below ? r.bottom + 6 : Math.max(6, r.top - th - 6)}px`;
  el.setAttribute('aria-describedby', 'glossary-tip');
}

function hideTip() {
  const tip = $('#glossary-tip');
  if (G.shown) G.shown.removeAttribute('aria-describedby');
  G.shown = null;
  if (tip) { tip.hidden = true; delete tip.dataset.term; }
}

/** The tooltip's listeners (once, at boot). */
export function bindGlossary() {
  let touch = false;
  document.addEventListener('pointerdown', (ev) => { touch = ev.pointerType === 'touch'; }, true);
  document.addEventListener('pointerover', (ev) => {
    if (ev.pointerType === 'touch') return;
    const el = termOf(ev.target);
    if (el && el !== G.shown) showTip(el);
  });
  document.addEventListener('pointerout', (ev) => {
    if (ev.pointerType === 'touch') return;
    if (termOf(ev.target) && termOf(ev.relatedTarget) !== G.shown) hideTip();
  });
  document.addEventListener('focusin', (ev) => {
    const el = termOf(ev.target);
    if (el && ev.target === el) showTip(el);
    else if (G.shown) hideTip();
  });
  document.addEventListener('focusout', (ev) => { if (termOf(ev.target) === G.shown) hideTip(); });
  // A tap on a word shows its meaning (a second tap, or a tap elsewhere, hides it); a word
  // inside a control shows it without stopping the control.
  document.addEventListener('click', (ev) => {
    const el = termOf(ev.target);
    if (!touch && !(el && ev.detail === 0)) { if (!el) hideTip(); return; }
    if (!el) { hideTip(); return; }
    if (G.shown === el) hideTip();
    else showTip(el);
  });
  document.addEventListener('keydown', (ev) => { if (ev.key === 'Escape' && G.shown) hideTip(); });
  window.addEventListener('scroll', () => { if (G.shown) hideTip(); }, true);
}

/** The glossary as a section of the rules screen (null when the ruleset has none). */
export function glossarySection(terms) {
  if (!terms || !terms.length) return null;
  return h('section', { class: 'help-glossary', 'aria-labelledby': 'glossary' },
    h('h2', { id: 'glossary', text: t('gl_title') }),
    h('p', { class: 'muted', text: t('gl_intro') }),
    h('dl', { class: 'gl-list' }, terms.map((x) => [
      h('dt', { id: `gl-${x.key}`, text: x.term }), h('dd', { text: x.text })])));
}
