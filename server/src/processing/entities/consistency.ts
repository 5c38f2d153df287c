/**
 * Document-level consistency of names: a name settled once in a text types its repeats and its
 * short forms the same way, and they all carry the full name's `normalized` key, so the step
 * from mentions to suggestions (groupMentions in modules/rawdata/entity-finding.ts) makes one
 * suggestion of "Orion Freight Holdings", "Orion Freight" and "Orion Freight's", and one person
 * of "Miriam Okonkwo" and "Okonkwo".
 *
 * Short forms: an organization's first words ("Orion Freight", "Nordpay" of "Nordpay Systems
 * GmbH") and its name without a legal form; a person's surname. A short form two different
 * full names could own ("Anna" of Anna Weber and Anna Nowak, "Baltic" of Baltic Rail and Baltic
 * Freight) stays as found.
 */
import { LEGAL_SUFFIXES, STOP_WORDS, WORDS_THAT_ARE_ALSO_NAMES } from './lexicon.ts';
import type { NameContext, NameType } from './names.ts';
import { foldName } from './normalize.ts';

export interface SettledName {
  type: NameType;
  firstToken: number;
  endToken: number;
  confidence: number;
  /** The key the suggestion groups by; a short form takes its full name's. */
  normalized: string;
}

interface Owner {
  type: NameType;
  normalized: string;
  words: number;
}

/** Confidence of a name found only as a repeat or short form of a settled one. */
const REPEAT_CONFIDENCE = 0.8;

const wordsOf = (context: NameContext, first: number, end: number) =>
  context.tokens.slice(first, end).filter((token) => token.isWord || token.text === '&').map((token) => token.text);

/** Every form (folded) that names the full name, and the full name it stands for. */
function shortForms(context: NameContext, names: SettledName[]): Map<string, Owner | null> {
  const forms = new Map<string, Owner | null>();
  // Longest names first: a form belongs to the longest name it shortens ("Baltic Rail" found
  // alone is itself a short form of "Baltic Rail Logistics"); two names as long that both
  // shorten to it leave it to nobody.
  const claim = (form: string, owner: Owner) => {
    if (!form || STOP_WORDS.has(form) || WORDS_THAT_ARE_ALSO_NAMES.has(form)) return;
    const existing = forms.get(form);
    if (existing === undefined) forms.set(form, owner);
    else if (existing && existing.normalized !== owner.normalized && existing.words === owner.words) forms.set(form, null);
  };
  const longestFirst = [...names].sort((a, b) => wordsOf(context, b.firstToken, b.endToken).length - wordsOf(context, a.firstToken, a.endToken).length || a.firstToken - b.firstToken);
  for (const name of longestFirst) {
    const words = wordsOf(context, name.firstToken, name.endToken);
    const owner: Owner = { type: name.type, normalized: name.normalized, words: words.length };
    claim(foldName(words.join(' ')), owner);
    if (words.length < 2) continue;
    if (name.type === 'PER') {
      claim(foldName(words[words.length - 1]!), owner);
      continue;
    }
    // Organizations: leading words, down to one ("Orion Freight", "Orion"), never only a legal form.
    for (let length = words.length - 1; length >= 1; length--) {
      const head = words.slice(0, length);
      const last = foldName(head[head.length - 1]!);
      if (LEGAL_SUFFIXES.has(last) || last === '&' || STOP_WORDS.has(last)) continue;
      // A lone first word that is also written in lower case in the text is a word, not a name.
      if (length === 1 && context.lowercaseWords.has(head[0]!.toLowerCase())) continue;
      claim(foldName(head.join(' ')), owner);
    }
  }
  return forms;
}

/**
 * Gives the settled names' types and keys to their repeats and short forms: names already
 * settled take the full name's key (and type, where the full name is the surer: "Orion Freight"
 * guessed a person after "Orion Freight Holdings" the organization); candidate runs nobody
 * settled are added. Returns the added names.
 */
export function settleRepeats(context: NameContext, names: SettledName[], candidates: Array<[number, number]>, mayAdd: (first: number, end: number) => boolean): SettledName[] {
  const forms = shortForms(context, names);
  const formOf = (first: number, end: number) => forms.get(foldName(wordsOf(context, first, end).join(' ')));
  for (const name of names) {
    const owner = formOf(name.firstToken, name.endToken);
    if (!owner || owner.words <= wordsOf(context, name.firstToken, name.endToken).length) continue;
    if (owner.type !== name.type && name.confidence >= 0.9) continue;
    name.type = owner.type;
    name.normalized = owner.normalized;
  }
  const taken = new Uint8Array(context.tokens.length);
  for (const name of names) taken.fill(1, name.firstToken, name.endToken);
  const added: SettledName[] = [];
  for (const [first, end] of candidates) {
    if (taken.subarray(first, end).some((mark) => mark === 1)) continue;
    const owner = formOf(first, end);
    if (!owner || !mayAdd(first, end)) continue;
    added.push({ type: owner.type, firstToken: first, endToken: end, confidence: REPEAT_CONFIDENCE, normalized: owner.normalized });
    taken.fill(1, first, end);
  }
  return added;
}
