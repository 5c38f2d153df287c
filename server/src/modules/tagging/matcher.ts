/**
 * How a tagging rule matches text, on RE2 (re2js, pure JavaScript): its
 * matching time is linear in the text, whatever the pattern, so a hostile
 * regular expression such as (a+)+$ cannot hang the server. The price is
 * RE2's syntax: no backreferences and no lookaround.
 *
 * - word: the pattern as a whole word (not inside a longer word);
 * - phrase: the words of the pattern in order, any whitespace between them,
 *   as a whole phrase;
 * - regex: an RE2 regular expression, anywhere in the text.
 * Case is ignored unless the rule is case-sensitive.
 */
import { RE2JS } from 're2js';

export const MATCH_TYPES = ['word', 'phrase', 'regex'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export interface RuleSpec {
  pattern: string;
  match_type: MatchType;
  case_sensitive: boolean;
}

export interface Match {
  start: number;
  end: number;
  text: string;
}

/** Longest pattern accepted (RE2 programs grow with it). */
export const MAX_PATTERN_LENGTH = 1000;
/** Most matches the rule tester reports for one text. */
export const MAX_REPORTED_MATCHES = 1000;

// Letters, digits (any script) and the underscore make up words.
const NOT_WORD = '[^\\p{L}\\p{N}\\p{M}_]';

export class PatternError extends Error {}

/** An RE2 pattern whose group 1 is the match (word and phrase rules consume a neighbouring character). */
function source(rule: RuleSpec): { source: string; group: number } {
  if (rule.match_type === 'regex') return { source: rule.pattern, group: 0 };
  const words = rule.pattern.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) throw new PatternError('Enter a word or phrase.');
  if (rule.match_type === 'word' && words.length > 1) throw new PatternError('A word rule matches one word; use a phrase rule for several.');
  const body = words.map((word) => RE2JS.quote(word)).join('\\s+');
  return { source: `(?:^|${NOT_WORD})(${body})(?:$|${NOT_WORD})`, group: 1 };
}

/** Explains why RE2 refuses a pattern, in the terms of the syntax people bring from other engines. */
function explain(pattern: string, message: string): string {
  const reason = message.replace(/^error parsing regexp:\s*/, '');
  if (/\\[1-9]|\\k</.test(pattern) && /invalid escape/.test(reason)) {
    return `Backreferences (\\1, \\k<name>) are not supported: rules run on RE2, a linear-time engine, so no pattern can hang the server (${reason}).`;
  }
  if (/\(\?<?[=!]/.test(pattern)) {
    return `Lookahead and lookbehind ((?=…), (?!…), (?<=…), (?<!…)) are not supported: rules run on RE2, a linear-time engine, so no pattern can hang the server (${reason}).`;
  }
  if (/\*\+|\+\+|\?\+|\}\+/.test(pattern) || /\(\?>/.test(pattern)) {
    return `Possessive quantifiers and atomic groups are not supported by RE2, and not needed: RE2 never backtracks (${reason}).`;
  }
  return `Not a valid RE2 regular expression: ${reason}.`;
}

export interface CompiledRule {
  regex: RE2JS;
  group: number;
}

/** Compiles a rule, or throws PatternError with a message for the pattern field. */
export function compileRule(rule: RuleSpec): CompiledRule {
  if (rule.pattern.length > MAX_PATTERN_LENGTH) throw new PatternError(`Ensure the pattern has no more than ${MAX_PATTERN_LENGTH} characters.`);
  if (rule.pattern.trim() === '') throw new PatternError('This field may not be blank.');
  const { source: expression, group } = source(rule);
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(expression, rule.case_sensitive ? 0 : RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new PatternError(explain(rule.pattern, error instanceof Error ? error.message : String(error)));
  }
  if (rule.match_type === 'regex' && regex.test('')) {
    throw new PatternError('This pattern matches empty text, so it would tag every record; make it require at least one character.');
  }
  return { regex, group };
}

/** Compiled rules by their spec: saving a record compiles each enabled rule once per process, not per save. */
const cache = new Map<string, CompiledRule>();
const CACHE_SIZE = 2000;

export function compiledRule(rule: RuleSpec): CompiledRule {
  const key = `${rule.match_type}\u0000${rule.case_sensitive ? 1 : 0}\u0000${rule.pattern}`;
  let compiled = cache.get(key);
  if (compiled) {
    // Most recently used last, so the oldest entry is evicted first.
    cache.delete(key);
  } else {
    compiled = compileRule(rule);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, compiled);
  return compiled;
}

/** Whether the rule matches anywhere in the text. */
export function ruleMatches(rule: RuleSpec, text: string): boolean {
  return text !== '' && compiledRule(rule).regex.test(text);
}

/** Every match of the rule in the text (positions in UTF-16 code units, as JavaScript strings count), up to `limit`. */
export function findMatches(rule: RuleSpec, text: string, limit = MAX_REPORTED_MATCHES): Match[] {
  const { regex, group } = compiledRule(rule);
  const matcher = regex.matcher(text);
  const matches: Match[] = [];
  let position = 0;
  while (matches.length < limit && position <= text.length && matcher.find(position)) {
    const start = matcher.start(group);
    const end = matcher.end(group);
    matches.push({ start, end, text: text.slice(start, end) });
    // Word and phrase rules consumed the character after the match: the next one may start right there.
    // An empty match moves on by one character (both halves of a surrogate pair).
    const code = text.charCodeAt(end);
    position = end > start ? end : end + (code >= 0xd800 && code <= 0xdbff ? 2 : 1);
  }
  return matches;
}
