/**
 * PostgreSQL cannot store the NUL character (U+0000) in text or jsonb: a NUL
 * that reaches a statement fails there (a 500). The rule and its message, for
 * the edge (nul-guard.ts) and for the engine's spreadsheet rows alike.
 */
export const NUL_MESSAGE = 'Must not contain the NUL character (U+0000).';

const hasNul = (text: string) => text.includes('\u0000');
/** A field name fit to show (a NUL in a key is written as \u0000). */
const shown = (name: string) => name.split('\u0000').join('\\u0000');

/**
 * The top-level field of `input` holding a NUL anywhere (its key, a nested
 * key or a string), or null. Walks with an explicit stack, so no nesting depth
 * can overflow the call stack.
 */
export function nulField(input: unknown, whole = 'non_field_errors'): string | null {
  if (typeof input === 'string') return hasNul(input) ? whole : null;
  if (input === null || typeof input !== 'object') return null;
  for (const [key, value] of Object.entries(input)) {
    if (hasNul(key)) return shown(key);
    const stack: unknown[] = [value];
    while (stack.length > 0) {
      const item = stack.pop();
      if (typeof item === 'string') {
        if (hasNul(item)) return shown(key);
      } else if (Array.isArray(item)) {
        for (const element of item) stack.push(element);
      } else if (item !== null && typeof item === 'object') {
        for (const [nestedKey, nested] of Object.entries(item)) {
          if (hasNul(nestedKey)) return shown(key);
          stack.push(nested);
        }
      }
    }
  }
  return null;
}
