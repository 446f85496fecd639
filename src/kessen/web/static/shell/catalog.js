// A game's catalogue (cards, decks, switches: `GET /api/catalog/<ruleset>?lang=`), fetched once
// per language and kept; the board is drawn again when it arrives.

import { fetchJson, scheduleRender } from './state.js';

/**
 * The loader of `ruleset`'s catalogue into `store` (`{catalogs: {}, loading: {}}`, the game's
 * own state): `ensure(lang)` resolves to the catalogue of `lang`, fetching it at most once at a
 * time (a failed fetch may be tried again); `onLoad()` runs when one arrives.
 */
export function catalogLoader(ruleset, store, onLoad) {
  return function ensure(lang) {
    if (store.catalogs[lang]) return Promise.resolve(store.catalogs[lang]);
    if (!store.loading[lang]) {
      store.loading[lang] = fetchJson(`/api/catalog/${ruleset}?lang=${lang}`).then((c) => {
        store.catalogs[lang] = c;
        if (onLoad) onLoad();
        scheduleRender();
        return c;
      }).catch((err) => {
        delete store.loading[lang];
        throw err;
      });
    }
    return store.loading[lang];
  };
}

const setCatalogs = {};
const setAsked = new Set();

/**
 * The catalogue of `ruleset` in `lang` for the designer's card set `ref` a match names
 * (`view.card_set`), or null until it has arrived: asked for once (the screen is drawn again on
 * arrival; a set the server does not know leaves the shipped cards on screen).
 */
export function setCatalog(ruleset, lang, ref) {
  const key = `${ruleset}|${lang}|${ref}`;
  if (!setAsked.has(key)) {
    setAsked.add(key);
    fetchJson(`/api/catalog/${ruleset}?lang=${lang}&set=${encodeURIComponent(ref)}`)
      .then((c) => { setCatalogs[key] = c; scheduleRender(); })
      .catch(() => {});
  }
  return setCatalogs[key] || null;
}
