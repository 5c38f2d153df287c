/**
 * Addresses validated and normalized (email-address.ts) and found in text (email-extract.ts):
 * the cases of fixtures/address-cases.jsonl and fixtures/extraction-cases.json (over 200
 * strings with their expected outcome), then hostile texts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { domainTraits, INVALID_REASONS, isRoleLocalPart, normalizeAddress } from './email-address.ts';
import { deobfuscate, extractAddresses } from './email-extract.ts';

type ReasonKey = keyof typeof INVALID_REASONS;
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const addressCases = fixture('address-cases.jsonl')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line) as { input?: string; email?: string | null; reason?: ReasonKey })
  .filter((entry): entry is { input: string; email: string | null; reason?: ReasonKey } => typeof entry.input === 'string');

interface ExtractionCase {
  text: string;
  about?: string;
  found: Array<{ email: string; name: string | null; span: string }>;
  invalid: Array<{ span: string; reason: ReasonKey }>;
}
const extractionCases = (JSON.parse(fixture('extraction-cases.json')) as { cases: ExtractionCase[] }).cases;

describe('one address: validated and normalized', () => {
  it('the fixture holds over 200 strings with their outcome, together with the extraction cases', () => {
    const strings = addressCases.length + extractionCases.reduce((sum, entry) => sum + Math.max(1, entry.found.length + entry.invalid.length), 0);
    assert.ok(strings >= 200, `${strings} cases`);
  });

  for (const entry of addressCases) {
    it(`${JSON.stringify(entry.input)} → ${entry.email === null ? `invalid (${entry.reason})` : entry.email}`, () => {
      const result = normalizeAddress(entry.input);
      if (entry.email === null) {
        assert.equal(result.ok, false, `accepted as ${result.ok ? result.value.email : ''}`);
        if (!result.ok && entry.reason) assert.equal(result.reason, INVALID_REASONS[entry.reason]);
      } else {
        assert.ok(result.ok, result.ok ? '' : result.reason);
        assert.equal(result.value.email, entry.email);
      }
    });
  }

  it('stores an internationalized domain in Unicode, with its ASCII form beside it for mail servers', () => {
    const result = normalizeAddress('User@München.de');
    assert.ok(result.ok);
    assert.deepEqual(result.value, {
      email: 'user@münchen.de', ascii: 'user@xn--mnchen-3ya.de', local: 'user', typedLocal: 'User', domain: 'xn--mnchen-3ya.de', domainUnicode: 'münchen.de',
    });
    // Typed in punycode, the same address.
    const punycode = normalizeAddress('USER@xn--mnchen-3ya.de');
    assert.ok(punycode.ok);
    assert.equal(punycode.value.email, 'user@münchen.de');
    const plain = normalizeAddress('user@example.com');
    assert.ok(plain.ok);
    assert.equal(plain.value.domainUnicode, null);
  });

  it('tells role addresses, free-mail and disposable domains from the packages\' lists', () => {
    for (const local of ['info', 'INFO', 'sales', 'sales+eu', 'support', 'noreply', 'postmaster']) assert.equal(isRoleLocalPart(local), true, local);
    for (const local of ['ann', 'ann.lee', 'j.smith+news']) assert.equal(isRoleLocalPart(local), false, local);
    assert.deepEqual(domainTraits('gmail.com'), { isFreeMail: true, isDisposable: false });
    assert.deepEqual(domainTraits('mailinator.com'), { isFreeMail: false, isDisposable: true });
    assert.deepEqual(domainTraits('example.com'), { isFreeMail: false, isDisposable: false });
  });
});

describe('addresses in text', () => {
  for (const entry of extractionCases) {
    it(`${entry.about ?? JSON.stringify(entry.text.slice(0, 60))}`, () => {
      const { found, invalid } = extractAddresses(entry.text);
      assert.deepEqual(
        found.map((item) => ({ email: item.email, name: item.name, span: entry.text.slice(item.start, item.end) })),
        entry.found,
      );
      assert.deepEqual(
        invalid.map((item) => ({ span: item.text, reason: item.reason })),
        entry.invalid.map((item) => ({ span: item.span, reason: INVALID_REASONS[item.reason] })),
      );
      for (const item of invalid) assert.equal(entry.text.slice(item.start, item.end), item.text);
    });
  }

  it('gives each address its line, counting \\n, \\r\\n and \\r as line ends', () => {
    const text = 'a@example.com\nb@example.com\r\nc@example.com\rd@example.com\n\n  e@example.com';
    assert.deepEqual(extractAddresses(text).found.map((item) => [item.email[0], item.line]), [['a', 1], ['b', 2], ['c', 3], ['d', 4], ['e', 6]]);
  });

  it('positions are offsets of the text as received, obfuscations and surrogate pairs included', () => {
    const text = '😀😀 Ann <ann [at] example [dot] com> then x@例え.jp';
    const { found } = extractAddresses(text);
    assert.deepEqual(found.map((item) => text.slice(item.start, item.end)), ['ann [at] example [dot] com', 'x@例え.jp']);
    assert.equal(found[0]!.name, 'Ann');
  });

  it('maps every character of the deobfuscated text back to where it came from', () => {
    const original = 'a [at] b (dot) c &#64; d';
    const mapped = deobfuscate(original);
    assert.equal(mapped.text, 'a@b.c &#64; d'.replace('&#64;', '@'));
    for (let index = 0; index < mapped.text.length; index += 1) {
      assert.ok(mapped.from[index]! < mapped.to[index]!, `character ${index}`);
      assert.ok(mapped.to[index]! <= original.length);
    }
  });
});

describe('hostile texts', () => {
  it('finds all of 10,000 addresses in one text, in order', () => {
    const text = Array.from({ length: 10_000 }, (_, index) => `Person ${index} <person.${index}@domain${index % 97}.example>`).join(', ');
    const { found, invalid } = extractAddresses(text);
    assert.equal(found.length, 10_000);
    assert.equal(invalid.length, 0);
    assert.equal(found[1234]!.email, 'person.1234@domain70.example');
    assert.equal(found[1234]!.name, 'Person 1234');
    assert.ok(found.every((item, index) => index === 0 || item.start > found[index - 1]!.start));
  });

  it('reads a megabyte of random characters and answers spans that are in the text', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const alphabet = 'ab@.-_"()[]<>:; \n\t\r+é例😀＠&#64;at dot';
    const text = Array.from({ length: 1_000_000 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const { found, invalid } = extractAddresses(text);
    for (const item of [...found, ...invalid]) {
      assert.ok(item.start >= 0 && item.end <= text.length && item.start <= item.end);
      assert.ok(item.line >= 1);
    }
    for (const item of found) assert.ok(normalizeAddress(item.email).ok, item.email);
  });

  it('takes runs of @ signs, quotes and dots apart without looking back over them', () => {
    for (const text of ['@'.repeat(200_000), 'a@'.repeat(100_000), '"'.repeat(200_000) + '@x.com', '.'.repeat(200_000) + 'a@b.com', 'a'.repeat(300_000) + '@example.com']) {
      const { found, invalid } = extractAddresses(text);
      assert.ok(found.length + invalid.length <= text.length);
      for (const item of invalid) assert.ok(item.text.length <= 400, `an invalid span of ${item.text.length} characters`);
    }
    // The local part is cut at its maximum scan: the address found is the tail before the @.
    const long = extractAddresses('a'.repeat(300_000) + '@example.com');
    assert.equal(long.found.length + long.invalid.length, 1);
  });

  it('survives control characters, lone surrogates and NUL bytes inside the text', () => {
    const text = 'ann@exa\u0000mple.com \ud800bob@example.com carol@example.com\u0007 dave\u0000@example.com';
    const { found } = extractAddresses(text);
    assert.ok(found.some((item) => item.email === 'carol@example.com'));
    for (const item of found) assert.ok(!item.email.includes('\u0000'));
  });
});
