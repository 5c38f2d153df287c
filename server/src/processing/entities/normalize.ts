/**
 * Names normalized for matching: the same key for "Siemens AG", "SIEMENS" and
 * "Siemens Aktiengesellschaft"-free variants, for "Dr. Zoë Müller" and "zoe muller".
 */
import { LEGAL_SUFFIXES, PERSON_TITLES } from './lexicon.ts';

const MARKS = /\p{M}/gu;
const NOT_NAME = /[^\p{L}\p{N}&]+/gu;

/** Lower case, accents dropped, punctuation to spaces, "and" for "&", single spaces. */
export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(MARKS, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[’']s\b/g, '')
    .replace(/\./g, '')
    .replace(NOT_NAME, ' ')
    .replace(/&/g, ' and ')
    .trim()
    .split(/\s+/)
    .filter((word) => word.length > 0)
    .join(' ');
}

/** Drops a leading "the" and trailing legal forms ("The Acme Group Ltd" → "acme group"). */
export function normalizeOrganizationName(name: string): string {
  const words = foldName(name).split(' ').filter(Boolean);
  if (words[0] === 'the' && words.length > 1) words.shift();
  while (words.length > 1 && (LEGAL_SUFFIXES.has(words[words.length - 1]!) || words[words.length - 1] === 'and')) words.pop();
  return words.join(' ');
}

/** Drops leading titles ("Dr. Anna Weber" → "anna weber"). */
export function normalizePersonName(name: string): string {
  const words = foldName(name).split(' ').filter(Boolean);
  while (words.length > 1 && PERSON_TITLES.has(words[0]!)) words.shift();
  return words.join(' ');
}

export function normalizeName(name: string, type: 'PER' | 'ORG' | 'GEO' | 'KEYWORD'): string {
  if (type === 'ORG') return normalizeOrganizationName(name);
  if (type === 'PER') return normalizePersonName(name);
  return foldName(name);
}
