// The card editor's preview: the face of the card being edited, drawn by its game as the game
// draws its cards (the registry's `draftFace`: games/kobo-draft.js, games/maken-draft.js),
// from the draft itself, and its generated card text in Japanese and English as the server
// writes it (the preview route: the game's own text generator).

import { h } from '../shell/dom.js';
import { gameOf } from '../shell/registry.js';
import { S } from '../shell/state.js';
import { et } from './editor-strings.js';

/** The card's name in the page's language (the other one when it has none). */
export function nameIn(card, lang = S.settings.lang) {
  const first = lang === 'en' ? card.name_en : card.name_ja;
  const other = lang === 'en' ? card.name_ja : card.name_en;
  return String(first || other || '');
}

/** Resolves when what the faces of `form`'s game draw is here (its catalogue in the page's
 *  language: Maken's pictograms come with it). */
export function faceReady(form) {
  const game = gameOf(form.ruleset);
  return game.ensureCatalog ? game.ensureCatalog(S.settings.lang).catch(() => null) : Promise.resolve();
}

/** The face of `card` (a draft of `form`'s game). */
export function faceOf(card, form) {
  const game = gameOf(form.ruleset);
  const face = game.draftFace ? game.draftFace(card, form) : h('div', { class: 'ed-no-face', text: nameIn(card) });
  face.classList.add('ed-face-card');
  return face;
}

/** The generated text of the card in both languages: `preview` is the server's answer
 *  (`{text: {ja, en}}`, `text` null while the card has problems), or null while it comes. */
export function textsOf(preview) {
  const line = (lang) => {
    let text;
    let cls = 'ed-gen';
    if (!preview) {
      text = et('ed_text_loading');
      cls += ' muted';
    } else if (!preview.text) {
      text = et('ed_text_wait');
      cls += ' muted';
    } else {
      text = preview.text[lang];
    }
    return h('div', { class: 'ed-gen-box' },
      h('div', { class: 'ed-gen-k', text: et(`ed_text_${lang}`) }),
      h('p', { class: cls, id: `ed-text-${lang}`, lang, text }));
  };
  return h('section', { class: 'ed-texts', 'aria-live': 'polite' },
    h('h3', { class: 'ed-h3', text: et('ed_text') }), line('ja'), line('en'));
}
