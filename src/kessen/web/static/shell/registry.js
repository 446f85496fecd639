// The game registry: maps a view's ruleset id to the module that draws that game.
//
// The shell (start screen, connection, top-bar tools, settings, CARD INFORMATION, log, lane,
// COM's reasons, match history, replay, i18n) knows no game. It asks this file for the module
// of a ruleset and calls the module through the contract below. This is the only shell file
// that imports a game module; a game module imports from shell/ only, never another game.
//
// Game-module contract: each `games/<id>.js` exports one object `game` with
//
//   id                    the ruleset id (`view.ruleset`, `/api/meta` rulesets, `POST /api/games`).
//   t(key, params)        the module's texts in the current language (shell/i18n.js `texts`:
//                         its own table first, then the shell's). The shell reads these keys:
//                         game_name, game_desc (start screen, history filter), tagline,
//                         mode_hint_vs, mode_hint_cc, log_title, lane_highlight.
//   brand, logoSub, title the marks of the start screen and top bar, and the document title.
//   optionsBox            the id of the start-screen element holding the game's options
//                         (in index.html); shown only while the game is picked.
//   boardClass            the body class that switches the game screen to this game's board
//                         (its stylesheet shows its board and hides the others), or '' for none.
//   ensureCatalog(lang)   fetch the game's catalogue once (a promise).
//   renderStartOptions(box, ctx)  draw the options; ctx = {mode, meta} (meta: the ruleset's
//                         entry of /api/meta).
//   onUnpicked()          optional: another game was picked on the start screen (hide what the
//                         game shows outside its options box).
//   startConfig(box, ctx) the part of the POST /api/games body the options ask for
//                         ({decks} or {config}).
//   render(view)          draw the game's own parts of the game screen: top-bar scoreboard and
//                         turn line, board, results, operation panel (not during a replay:
//                         the shell draws the replay controls there), glowing choices.
//   renderInfo(view, info) CARD INFORMATION nodes for an `info` the game's board attached with
//                         shell/info.js `infoable`; null for an info it does not know.
//   actionText(text, prompt)  a short text of an action taken (COM's reasons, replay).
//   promptName(prompt)    the name of a prompt kind.
//   detectEnd(prev, view) show the end-of-game/match dialog once, when a live view first ends.
//   init()                optional: once at boot, bind the game's own listeners (start options,
//                         hovering over its board).
//   intercept(action, view)  optional: true when the game takes over a chosen action (Kōbō
//                         asks before a pass); the shell then sends nothing.
//   onBoardClick(ev)      optional: a click on the table the shell did not handle.
//   tapToInspect(action)  optional: on a touch screen, a tap on a glowing place calls this
//                         instead of sending the action (tap to read; the operation panel's
//                         button of that action acts).
//   onEscape()            optional: true when Escape was used by the game (nothing else runs).
//   reset()               forget what was drawn (a new game, a replay, a language switch).
//   replayTurnLabel(turn) the label of one entry of a record's `turns` (replay viewer).
//   continueConfig(match, seat, res)  the config もう一度 repeats after "continue from here".
//   deckName(slug), decks()  optional: the game's decks (history list and deck filter).
//   deckBuilder           optional: the game's part of the deck builder (shell/decks.js, the
//                         デッキ構築 screen, offered for games that have it; the server's
//                         /api/decks/<id> must exist). An object with
//       blank()           an empty deck (the game's deck JSON);
//       starters()        [{key, name, deck}]: the decks a new deck may start from;
//       nameOf(deck, lang)  the deck's own name; named(deck, name): the deck under that name
//                         (what is checked, saved and exported);
//       change(deck, card, delta)  the deck with one copy more or fewer (null: unchanged);
//       summary(deck)     its size in a few characters;
//       renderPool(box, ctx)  the card pool and its filters (ctx.add(card) adds one copy);
//       renderDeck(box, ctx)  the deck by section with counts and −/+ (ctx.change(card, ±1)).
//                         ctx = {deck, problems (the server's check), add, change, set}
//                         (set(deck): the deck replaced by an edit of the game's own, such as
//                         TWGP's placing a card in a part of its build). The frame does the
//                         rest: name, live problems, saved decks, import and export.
//       words             optional: {ja: {...}, en: {...}} over the frame's `db_*` texts (TWGP
//                         says 構築 / "build" where Kōbō says デッキ / "deck").
//   draftFace(card, form) optional: the face of a designer's draft card (one card of a card
//                         set's JSON form, as it is typed), for the design screen's card editor
//                         (design/editor-face.js); form: the editor's form of the game
//                         (/api/design/games/<id>/form: its words, Kōbō's pictograms).
//   helpAnchor            optional: the heading id of the game's rules document
//                         (/api/rules/<id>) that the board's ルール button opens at (its
//                         screen guide); without it, the first section (see `screenGuide`).
//
// What the shell gives a game: `shell/outcome.js` draws the operation panel while the player has
// nothing to decide and the end-of-game dialog, in the game's words; an element with class
// `selectable` and `data-act="<action>"` is
// sent as that action when clicked (shell/connection.js `choose`, which asks `intercept`); an
// element made `infoable` shows its info in CARD INFORMATION; `S` (shell/state.js) holds the
// view, the answered prompt (`awaiting`), `opsSig` (clear it to redraw the operation panel),
// `confirm` and `hover`; the game's board elements and options box are in index.html, and its
// stylesheet is linked there. The first game of GAMES is the default ruleset.
//
// Keyboard and screen readers (shell/keys.js): after each render the shell makes every
// `.selectable[data-act]` element and every element of class `pickable` (a place the game
// lets you choose without a data-act, such as TWGP's glowing places) focusable (tabindex 0,
// role button; named by the operation panel's button of the same action, or by its own
// `aria-label`), and Enter or Space on it clicks it. The number keys press the operation
// panel's visible `button.act` buttons in order; Enter presses `#ops .confirm-yes` when no
// other control has the focus; Escape goes through `onEscape` as before. The log's new
// entries are read out from a polite live region; a game needs to do nothing for that.

import { game as kobo } from '../games/kobo.js';
import { game as maken } from '../games/maken.js';
import { game as twgp } from '../games/twgp.js';
import { S } from './state.js';

/** Every game this page can draw, in start-screen order. */
export const GAMES = [kobo, twgp, maken];

const BY_ID = new Map(GAMES.map((g) => [g.id, g]));

/** The ruleset a view belongs to ("kobo" for views that do not say). */
export function rulesetOf(v) {
  return (v && v.ruleset) || GAMES[0].id;
}

/** The module of a ruleset id (the first game for an unknown one). */
export function gameOf(id) {
  return BY_ID.get(id) || GAMES[0];
}

/** The module drawing a view. */
export function gameOfView(v) {
  return gameOf(rulesetOf(v));
}

// The screen guide of a game whose module does not name it yet (Kōbō's rules: "13. 画面の見方").
const SCREEN_GUIDES = { kobo: 'sec-13' };

/** The heading the board's ルール button opens the game's rules at ('' for the first). */
export function screenGuide(g) {
  return g.helpAnchor || SCREEN_GUIDES[g.id] || '';
}

/** Whether a module exists for this ruleset id. */
export function known(id) {
  return BY_ID.has(id);
}

/** The games the server offers (all of them before /api/meta is known). */
export function offered() {
  return S.meta ? GAMES.filter((g) => S.meta.rulesets[g.id]) : GAMES;
}

/** The name of a game in the current language (its id when no module draws it). */
export function gameName(id) {
  return known(id) ? gameOf(id).t('game_name') : id;
}

/** The name of a prompt kind in the current language, for any ruleset. */
export function promptLabel(prompt, ruleset) {
  return gameOf(ruleset).promptName(prompt);
}

/** A short text for an action taken, for any ruleset. */
export function anyActionText(text, prompt, ruleset) {
  return gameOf(ruleset).actionText(text, prompt);
}

/** Forget what every game drew. */
export function resetGames() {
  for (const g of GAMES) g.reset();
}

/** Every deck of every game that has decks (the history's deck filter). */
export function allDecks() {
  return GAMES.flatMap((g) => (g.decks ? g.decks() : []));
}

/** The name of a deck of a ruleset's record. */
export function deckName(ruleset, slug) {
  const g = gameOf(ruleset);
  return g.deckName ? g.deckName(slug) : (slug || '?');
}
