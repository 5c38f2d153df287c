import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileRule, findMatches, PatternError, ruleMatches, type RuleSpec } from './matcher.ts';

const word = (pattern: string, case_sensitive = false): RuleSpec => ({ pattern, match_type: 'word', case_sensitive });
const phrase = (pattern: string, case_sensitive = false): RuleSpec => ({ pattern, match_type: 'phrase', case_sensitive });
const regex = (pattern: string, case_sensitive = false): RuleSpec => ({ pattern, match_type: 'regex', case_sensitive });
const texts = (rule: RuleSpec, text: string) => findMatches(rule, text).map((match) => match.text);

describe('tagging rule matcher', () => {
  it('a word matches whole words only, ignoring case unless told', () => {
    assert.deepEqual(texts(word('bank'), 'Bank, banking, riverbank, BANK. bank_x bank'), ['Bank', 'BANK', 'bank']);
    assert.deepEqual(texts(word('bank', true), 'Bank bank BANK'), ['bank']);
    assert.equal(ruleMatches(word('AI'), 'said the chairman'), false);
    assert.equal(ruleMatches(word('AI'), 'invests in AI.'), true);
  });

  it('words are words in any script, and positions count as JavaScript strings do', () => {
    const text = '😀 Zürich; ZÜRICH and Zürichsee';
    const matches = findMatches(word('zürich'), text);
    assert.deepEqual(matches.map((match) => match.text), ['Zürich', 'ZÜRICH']);
    for (const match of matches) assert.equal(text.slice(match.start, match.end), match.text);
    assert.equal(ruleMatches(word('москва'), 'Офис в Москве'), false);
    assert.equal(ruleMatches(word('москва'), 'Офис: Москва'), true);
  });

  it('adjacent matches are all found', () => {
    assert.deepEqual(findMatches(word('go'), 'go go go').map((match) => match.start), [0, 3, 6]);
  });

  it('a phrase matches its words in order with any whitespace between them', () => {
    assert.deepEqual(texts(phrase('central  bank'), 'The Central\n  Bank said; the central banker'), ['Central\n  Bank']);
    assert.equal(ruleMatches(phrase('central bank'), 'bank central'), false);
    assert.throws(() => compileRule(phrase('   ')), PatternError);
    assert.throws(() => compileRule(word('two words')), /phrase/);
  });

  it('special characters in words and phrases are literal', () => {
    assert.equal(ruleMatches(word('C++'), 'written in C++ mostly'), true);
    assert.equal(ruleMatches(word('a.b'), 'axb'), false);
    assert.equal(ruleMatches(phrase('(beta) test'), 'a (beta) test here'), true);
  });

  it('a regex matches anywhere, with RE2 syntax', () => {
    assert.deepEqual(texts(regex('\\bIPO\\b|initial public offering'), 'The IPO, an Initial Public Offering'), ['IPO', 'Initial Public Offering']);
    assert.deepEqual(texts(regex('[A-Z]{3}', true), 'usd EUR gbp'), ['EUR']);
    assert.deepEqual(texts(regex('(?i)eur'), 'EUR'), ['EUR']);
  });

  it('refuses what RE2 cannot run, saying why', () => {
    assert.throws(() => compileRule(regex('(a)\\1')), /Backreferences/);
    assert.throws(() => compileRule(regex('foo(?=bar)')), /Lookahead and lookbehind/);
    assert.throws(() => compileRule(regex('(?<!x)y')), /Lookahead and lookbehind/);
    assert.throws(() => compileRule(regex('a++')), /Possessive/);
    assert.throws(() => compileRule(regex('[unclosed')), /Not a valid RE2 regular expression: missing closing \]/);
    assert.throws(() => compileRule(regex('a{5000}')), /invalid repeat count/);
    assert.throws(() => compileRule(regex('x'.repeat(1001))), /no more than 1000/);
  });

  it('refuses a regex that matches empty text (it would tag everything)', () => {
    assert.throws(() => compileRule(regex('a*')), /matches empty text/);
    assert.throws(() => compileRule(regex('^$')), /matches empty text/);
  });

  it('a hostile pattern reads each character of the text a bounded number of times (linear time)', () => {
    // Counts the engine's reads of the text instead of timing it, so a busy machine cannot fail
    // this: a backtracking engine rereads the text once per way of splitting it (exponential for
    // these patterns), a linear one a fixed number of times whatever its length.
    const reads = (pattern: string, length: number) => {
      let count = 0;
      const text = new String(`${'a'.repeat(length)}!`);
      const charCodeAt = text.charCodeAt.bind(text);
      text.charCodeAt = (index: number) => (count++, charCodeAt(index));
      // re2js accepts String objects, so the counter sees every character it reads.
      const matches = findMatches(regex(pattern), text as unknown as string);
      return { count, matches };
    };
    for (const pattern of ['(a+)+$', '(a|aa)+$', '(a*)*b', '(.*a){20}$']) {
      const small = reads(pattern, 10_000);
      const large = reads(pattern, 40_000);
      assert.deepEqual(large.matches, [], pattern);
      assert.ok(small.count > 0, `${pattern}: the count sees the engine's reads`);
      assert.ok(large.count <= 10 * 40_001, `${pattern} read ${large.count} characters of 40,001`);
      // Four times the text, about four times the reads (a quadratic engine would read 16×).
      assert.ok(large.count <= 5 * small.count, `${pattern}: ${small.count} reads for 10,001 characters, ${large.count} for 40,001`);
    }
  });

  it('lists at most the limit of matches, and moves past empty matches', () => {
    assert.equal(findMatches(word('a'), 'a '.repeat(50), 10).length, 10);
    assert.deepEqual(findMatches(regex('\\b'), '😀 ab').map((match) => match.start), [3, 5]);
  });
});
