/**
 * The tenant's own names (organizations, people, geos, keywords with their
 * aliases), built once per processing run and matched in the text word by
 * word through a trie: at each word the longest known name wins, so
 * "Deutsche Bank Research" is found whole when it is known, and a known name
 * is found without any context cue.
 */
import { STOP_WORDS } from './lexicon.ts';
import { foldName, normalizeName } from './normalize.ts';
import type { Token } from './tokens.ts';

export type GazetteerType = 'PER' | 'ORG' | 'GEO' | 'KEYWORD';

export interface GazetteerEntry {
  id: string;
  type: GazetteerType;
  /** The name and its aliases. */
  names: string[];
}

export interface GazetteerMatch {
  entry: GazetteerEntry;
  /** Token indices, end exclusive. */
  firstToken: number;
  endToken: number;
}

interface TrieNode {
  children: Map<string, TrieNode>;
  entries: GazetteerEntry[];
}

const newNode = (): TrieNode => ({ children: new Map(), entries: [] });

/** A separator between words that no name contains (commas, periods, brackets). */
const BARRIER = '\u0000';

export class Gazetteer {
  private readonly root = newNode();
  private readonly byName = new Map<string, GazetteerEntry[]>();
  private entryCount = 0;

  constructor(entries: Iterable<GazetteerEntry> = []) {
    for (const entry of entries) this.add(entry);
  }

  get size(): number {
    return this.entryCount;
  }

  add(entry: GazetteerEntry): void {
    this.entryCount++;
    const keys = new Set<string>();
    for (const name of entry.names) {
      // Both the full form ("acme group ltd") and the matching form ("acme group").
      for (const key of [foldName(name), normalizeName(name, entry.type)]) if (key) keys.add(key);
    }
    for (const key of keys) {
      const words = key.split(' ');
      // A known organization called "Will" would make every "will" a suggestion.
      if (words.length === 1 && STOP_WORDS.has(words[0]!) && entry.type !== 'KEYWORD') continue;
      let node = this.root;
      for (const word of words) {
        let child = node.children.get(word);
        if (!child) node.children.set(word, (child = newNode()));
        node = child;
      }
      if (!node.entries.includes(entry)) node.entries.push(entry);
      const named = this.byName.get(`${entry.type}:${normalizeName(key, entry.type)}`) ?? [];
      if (!named.includes(entry)) named.push(entry);
      this.byName.set(`${entry.type}:${normalizeName(key, entry.type)}`, named);
    }
  }

  /** Entries of that type whose normalized name or alias equals the normalized name given. */
  lookup(name: string, type: GazetteerType): GazetteerEntry[] {
    return this.byName.get(`${type}:${normalizeName(name, type)}`) ?? [];
  }

  /**
   * Longest matches in the tokens, left to right, not overlapping. Names of
   * people, organizations and places must start with a capitalized word in
   * the text ("apple" the fruit is not Apple); keywords match in any case.
   */
  match(tokens: Token[]): GazetteerMatch[] {
    if (this.entryCount === 0) return [];
    // Each token folds to zero or more words ("Rolls-Royce" → "rolls royce").
    const words: string[] = [];
    const tokenOfWord: number[] = [];
    tokens.forEach((token, index) => {
      const folded = token.isWord || token.text === '&' ? foldName(token.text) : '';
      const parts = folded ? folded.split(' ') : [BARRIER];
      for (const part of parts) {
        words.push(part);
        tokenOfWord.push(index);
      }
    });
    const matches: GazetteerMatch[] = [];
    let position = 0;
    while (position < words.length) {
      let node: TrieNode | undefined = this.root;
      let best: { entries: GazetteerEntry[]; end: number } | undefined;
      for (let cursor = position; cursor < words.length; cursor++) {
        node = node.children.get(words[cursor]!);
        if (!node) break;
        if (node.entries.length > 0) best = { entries: node.entries, end: cursor + 1 };
      }
      const firstToken = tokenOfWord[position]!;
      const startsAtToken = position === 0 || tokenOfWord[position - 1] !== firstToken;
      const entry = best && startsAtToken ? this.pick(best.entries, tokens[firstToken]!) : undefined;
      if (best && entry) {
        let endWord = best.end;
        // A match ending inside a token takes the whole token, or nothing.
        const lastToken = tokenOfWord[endWord - 1]!;
        if (endWord < words.length && tokenOfWord[endWord] === lastToken) {
          position++;
          continue;
        }
        matches.push({ entry, firstToken, endToken: lastToken + 1 });
        while (endWord < words.length && tokenOfWord[endWord] === lastToken) endWord++;
        position = endWord;
      } else {
        position++;
      }
    }
    return matches;
  }

  private pick(entries: GazetteerEntry[], first: Token): GazetteerEntry | undefined {
    return entries.find((entry) => entry.type === 'KEYWORD' || first.capitalized);
  }
}

export function buildGazetteer(entries: Iterable<GazetteerEntry>): Gazetteer {
  return new Gazetteer(entries);
}
