// Drawers on tablets and phones: below 1200 px the log column (log, results, COM's reasoning)
// and CARD INFORMATION leave the table and slide in over the board from its edges, so the board
// keeps the screen's width. Two tabs in the top bar open them; a tap on the dimmed board, the
// tab again or Escape closes them. On a desktop the tabs are hidden and the panels stay in
// their columns (shell/shell.css decides which by width; nothing here measures the screen).
import { $, $$ } from './dom.js';

/** Open drawer `name` ('left' or 'info'), or close any with null. */
export function openDrawer(name) {
  const body = document.body;
  if (name) body.dataset.drawer = name;
  else delete body.dataset.drawer;
  $('#drawer-scrim').hidden = !name;
  for (const tab of $$('#drawer-tabs [data-drawer]')) {
    tab.setAttribute('aria-expanded', String(tab.dataset.drawer === name));
  }
  if (name === 'info') $('#tab-info').classList.remove('fresh');
}

/** CARD INFORMATION changed while its drawer is closed: its tab says so. */
export function noteInfo() {
  if (document.body.dataset.drawer !== 'info') $('#tab-info').classList.add('fresh');
}

export function bindDrawers() {
  for (const tab of $$('#drawer-tabs [data-drawer]')) {
    tab.addEventListener('click', () => {
      openDrawer(document.body.dataset.drawer === tab.dataset.drawer ? null : tab.dataset.drawer);
    });
  }
  $('#drawer-scrim').addEventListener('click', () => openDrawer(null));
  document.addEventListener('keydown', (ev) => {
    if (ev.key === 'Escape' && document.body.dataset.drawer) openDrawer(null);
  });
}
