/**
 * Requests to change data ("delete all organizations in London", "make all hidden people
 * public"): the Operator only reads, so such a question is refused with a statement saying so,
 * never answered as a read (which would look as if the change had been made or ignored).
 */
import { ApiError } from '../../resources/errors.ts';

/** Verbs that ask for a change when they lead the request (after "please", "can you" …). */
const WRITE_VERBS = [
  'delete', 'remove', 'erase', 'drop', 'purge', 'destroy', 'wipe', 'clear', 'add', 'insert', 'create', 'make', 'set', 'change',
  'update', 'edit', 'modify', 'rename', 'move', 'merge', 'tag', 'untag', 'assign', 'hide', 'unhide', 'publish', 'unpublish',
  'archive', 'import', 'upload', 'write', 'save', 'mark', 'replace', 'reject', 'accept', 'approve', 'put', 'append', 'attach',
  'detach', 'link', 'unlink', 'register', 'record', 'enter', 'fix', 'correct', 'overwrite', 'reset', 'restore',
  // Not "favourite", "email" or "share": "favourite people", "email addresses of …", "share prices" read.
  'send', 'star', 'unstar', 'unfavourite', 'unfavorite', 'increase', 'decrease', 'raise',
  'lower', 'deduplicate', 'dedupe', 'duplicate', 'copy', 'flag', 'unflag', 'relabel', 'categorize', 'categorise',
  'convert', 'revert', 'undo', 'cancel', 'populate', 'fill', 'reassign', 'recategorize', 'retag', 'downgrade', 'upgrade',
];
const LEAD = String.raw`^(?:(?:please|kindly|now|ok(?:ay)?|hey|operator|just|quickly)[\s,]+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|(?:i|we)\s+(?:want|need|would\s+like|wish)\s+(?:you\s+)?to\s+|i'?d\s+like\s+(?:you\s+)?to\s+|(?:please\s+)?help\s+me\s+(?:to\s+)?|let'?s\s+|go\s+ahead\s+and\s+|i\s+want\s+)?(?:please\s+)?`;
const WRITE_RE = new RegExp(`${LEAD}(${WRITE_VERBS.join('|')})\\b(?!\\s*(?:ed|ing)\\b)`, 'i');

/** A write verb leading a later clause, with what it acts on ("…, set it to 2011", "… and delete them"). */
const CLAUSE_WRITE_RE = new RegExp(`(?:[,;.!:]|\\b(?:then|and|so|please))\\s+(?:please\\s+)?(${WRITE_VERBS.join('|')})\\s+(?:it|them|this|that|these|those|all|every|each|its|their|his|her)\\b`, 'i');
/** A record to be made, written as a form ("new person: John Smith, London"). */
const NEW_RECORD_RE = /^(?:a\s+)?new\s+(?:person|people|contact|organi[sz]ation|org|company|firm|deal|ledger\s+entry|entry|library\s+entry|report|list|keyword|tag|record)\s*[:\-–]/i;

/** The verb of a question that asks for a change, or null for a question that reads. */
export function writeVerb(question: string): string | null {
  const plain = question.trim().replace(/[’‘]/g, "'");
  const verb = WRITE_RE.exec(plain)?.[1] ?? CLAUSE_WRITE_RE.exec(plain)?.[1] ?? (NEW_RECORD_RE.test(plain) ? 'create' : null);
  return verb?.toLowerCase() ?? null;
}

/** The refusal of a change: a 400 naming `query` that says plainly nothing was or will be changed. */
export function writeRefusal(verb: string): ApiError {
  const detail = `The Operator is read-only: it cannot ${verb} records, and nothing was changed. Ask a question that finds records (e.g. “organizations in London”), then change them on their own pages.`;
  return new ApiError(400, 'read_only', detail, { query: [detail] });
}
