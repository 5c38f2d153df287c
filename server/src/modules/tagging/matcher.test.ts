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

  it('a hostile pattern over a long text returns at once (linear time)', () => {
    const text = `${'a'.repeat(100_000)}!`;
    for (const pattern of ['(a+)+$', '(a|aa)+$', '(a*)*b', '(.*a){20}$']) {
      const started = performance.now();
      const matches = findMatches(regex(pattern), text);
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 2000, `${pattern} took ${Math.round(elapsed)} ms`);
      assert.ok(Array.isArray(matches));
    }
  });

  it('lists at most the limit of matches, and moves past empty matches', () => {
    assert.equal(findMatches(word('a'), 'a '.repeat(50), 10).length, 10);
    assert.deepEqual(findMatches(regex('\\b'), '😀 ab').map((match) => match.start), [3, 5]);
  });
});
