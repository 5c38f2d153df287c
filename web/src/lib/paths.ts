/** Routes more than one screen leads to, so every link to them goes to the same place. */

/** Intelbooks (SPEC §2: the tab and the home card go to facts/view; the launcher goes there too). */
export const INTELBOOKS_PATH = '/facts/view';
