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
