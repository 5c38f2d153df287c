/**
 * @mentions in a note's text (docs/notes.md): what is being typed after an "@", the teammates
 * it may mean, putting the chosen one in, and which chosen teammates the text still names when
 * it is sent (a mention deleted from the text is not sent). Pure functions, unit-tested.
 */
import type { NoteUser } from '@intelnotes/server/contracts';

/** How a teammate is written after the "@": their alias, else their e-mail address. */
export const handleOf = (user: NoteUser): string => (user.alias?.trim() ? user.alias.trim().replace(/\s+/g, '_') : user.email);

/** The "@…" being typed just before the caret: where its "@" is and the text after it; null when none. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|\s)@([^\s@]*(?:@[^\s@]*)?)$/.exec(before);
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/** The teammates an "@query" may mean: handles or addresses starting with it first, then containing it. */
export function matchingTeammates(teammates: readonly NoteUser[], query: string, max = 8): NoteUser[] {
  const wanted = query.toLowerCase();
  const keys = (user: NoteUser) => [handleOf(user).toLowerCase(), user.email.toLowerCase()];
  const starting = teammates.filter((user) => keys(user).some((key) => key.startsWith(wanted)));
  const containing = teammates.filter((user) => !starting.includes(user) && keys(user).some((key) => key.includes(wanted)));
  return [...starting, ...containing].slice(0, max);
}

/**
 * The text with the "@query" at `start` (up to the caret) replaced by the teammate's handle, a
 * space after it unless one or a punctuation mark follows; and where the caret goes (after both).
 */
export function insertMention(text: string, start: number, caret: number, user: NoteUser): { text: string; caret: number } {
  const rest = text.slice(caret);
  const space = /^[\s.,;:!?)]/.test(rest) ? '' : ' ';
  const inserted = `@${handleOf(user)}${space}`;
  return { text: text.slice(0, start) + inserted + rest, caret: start + inserted.length + (/^\s/.test(rest) ? 1 : 0) };
}

/** Of the teammates chosen while typing, those whose "@handle" the text still holds (each once). */
export function mentionedIn(text: string, chosen: readonly NoteUser[]): string[] {
  const ids: string[] = [];
  for (const user of chosen) {
    const handle = handleOf(user).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (new RegExp(`(^|\\s)@${handle}(?=$|[\\s.,;:!?)])`, 'i').test(text) && !ids.includes(user.id)) ids.push(user.id);
  }
  return ids;
}
