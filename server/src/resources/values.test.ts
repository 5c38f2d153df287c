import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatIncompleteDate,
  normalizeName,
  normalizeUrlForMatch,
  parseEmail,
  parseIncompleteDate,
  parsePhone,
  parseUrl,
  type IncompleteDate,
  type Parsed,
} from './values.ts';

// Inputs that no function may throw on; several are hostile on purpose.
const hostile: unknown[] = [
  undefined, null, 0, -1, NaN, Infinity, 1n, true, false, Symbol('x'), () => 'a@b.com',
  {}, [], [1], ['a@b.com'], Object.create(null), new Date(NaN), new Date(0), /x/,
  { toString: () => { throw new Error('boom'); } },
  { get date(): string { throw new Error('boom'); } },
  new Proxy({}, { get: () => { throw new Error('boom'); }, has: () => { throw new Error('boom'); } }),
  '', ' ', '\u0000', '\ud800', '\u200b', '<>', '<<a@b.com>>', '@', '+', '--', '-', '://', '%',
  'x'.repeat(100_000), '1'.repeat(100_000), '<'.repeat(10_000), 'a@'.repeat(10_000), ' '.repeat(10_000) + 'a@b.com',
];

function assertOk<T>(result: Parsed<T>, expected: T, input: unknown): void {
  assert.deepEqual(result, { ok: true, value: expected }, `input ${JSON.stringify(input)}`);
}

function assertFails<T>(result: Parsed<T>, input: unknown): void {
  assert.equal(result.ok, false, `input ${describeInput(input)} should fail, got ${JSON.stringify(result)}`);
  if (!result.ok) assert.match(result.message, /^[A-Z].*\.$/, 'message is a sentence ending with a period');
}

function describeInput(input: unknown): string {
  if (typeof input === 'string') return JSON.stringify(input.length > 60 ? `${input.slice(0, 60)}…` : input);
  try {
    return String(input);
  } catch {
    return typeof input;
  }
}

describe('parseEmail', () => {
  const good: Array<[string, string]> = [
    ['a@b.com', 'a@b.com'],
    ['  Jane.Doe@Example.COM \n', 'Jane.Doe@example.com'],
    ['Jane Doe <Jane@EXAMPLE.org>', 'Jane@example.org'],
    ['"Doe, Jane" < jane@example.org >', 'jane@example.org'],
    ['<jane@example.org>', 'jane@example.org'],
    ['mailto:Jane@Example.com', 'Jane@example.com'],
    ['user+tag@sub.example.co.uk', 'user+tag@sub.example.co.uk'],
    ['Élodie@Bücher.DE', 'Élodie@bücher.de'],
    ['e\u0301lodie@example.com', 'élodie@example.com'],
    [`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`],
    ['"john smith"@example.com', '"john smith"@example.com'],
  ];
  for (const [input, expected] of good) {
    it(`accepts ${JSON.stringify(input)}`, () => assertOk(parseEmail(input), expected, input));
  }

  const bad: unknown[] = [
    '', '   ', 'plainaddress', 'a@b', 'a@b.', '@example.com', 'a@@b.com', 'a b@c.com', 'a.@b.com',
    'Jane <a@b.com', 'Jane <a@b.com> extra', 'Jane a@b.com', 'a@b.com, c@d.com', 'a@[1.2.3.4]', 'a@1.2.3.4',
    `${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(250)}.com`, 'a@b.com'.repeat(1000), 'mailto:',
    42, null, undefined, {}, [], ['a@b.com'], new Date(),
  ];
  for (const input of bad) {
    it(`rejects ${describeInput(input)}`, () => assertFails(parseEmail(input), input));
  }

  it('explains the length limit', () => {
    const result = parseEmail(`${'a'.repeat(60)}@${'b'.repeat(200)}.com`);
    assert.deepEqual(result, { ok: false, message: 'An email address can be at most 254 characters.' });
  });
});

describe('parsePhone', () => {
  const good: Array<[string, string | undefined, string]> = [
    ['+1 415 555 2671', undefined, '+14155552671'],
    ['(415) 555-2671', 'US', '+14155552671'],
    ['415.555.2671', ' us ', '+14155552671'],
    ['0044 20 7946 0958', 'US', '+442079460958'],
    ['020 7946 0958', 'GB', '+442079460958'],
    ['+44 20 7946 0958', 'US', '+442079460958'],
    ['+1 415 555 2671 ext. 123', undefined, '+14155552671 ext 123'],
    ['+1-415-555-2671 x 45', undefined, '+14155552671 ext 45'],
    ['(415) 555-2671 #9', 'US', '+14155552671 ext 9'],
    ['＋１ ４１５ ５５５ ２６７１', undefined, '+14155552671'],
    ['+١ ٤١٥ ٥٥٥ ٢٦٧١', undefined, '+14155552671'],
    ['+14155552671', 'XX', '+14155552671'],
    // Not verifiable: kept in a cleaned form instead of being lost.
    ['(415) 555-2671', undefined, '(415) 555-2671'],
    ['  ( 415 )   555.2671  ', undefined, '(415) 555 2671'],
    ['+1 555 555 5555', undefined, '+1 555 555 5555'],
    ['12345', undefined, '12345'],
    ['555/0123 ext 7', 'XX', '555 0123 ext 7'],
    ['1'.repeat(20), undefined, '1'.repeat(20)],
  ];
  for (const [input, country, expected] of good) {
    it(`accepts ${JSON.stringify(input)} (${country ?? 'no country'})`, () =>
      assertOk(parsePhone(input, country), expected, input));
  }

  it('is idempotent', () => {
    for (const [input, country] of good) {
      const first = parsePhone(input, country);
      assert.ok(first.ok);
      assert.deepEqual(parsePhone(first.value, country), first, `input ${input}`);
    }
  });

  const bad: unknown[] = [
    '', '   ', '1234', '1'.repeat(21), 'call me', '+1 415 555 2671 abc', '1-800-FLOWERS', 'n/a',
    '415*555*2671', '++1 415 555 2671', '415 + 555 2671', 'a'.repeat(200), '1'.repeat(100_000),
    14155552671, null, undefined, {}, [], ['+14155552671'], { number: '+14155552671' },
  ];
  for (const input of bad) {
    it(`rejects ${describeInput(input)}`, () => {
      const result = parsePhone(input, 'US');
      assertFails(result, input);
      assert.deepEqual(result, { ok: false, message: 'Enter a valid phone number.' });
    });
  }
});

describe('parseUrl', () => {
  const good: Array<[string, string]> = [
    ['example.com', 'https://example.com/'],
    ['example.com/x', 'https://example.com/x'],
    ['www.example.com/about/', 'https://www.example.com/about/'],
    [' HTTP://WWW.Example.COM:80/A?b=1#c ', 'http://www.example.com/A?b=1#c'],
    ['https://example.com:443/', 'https://example.com/'],
    ['example.com:8080/x', 'https://example.com:8080/x'],
    ['//cdn.example.com/a', 'https://cdn.example.com/a'],
    ['https://bücher.de/ä', 'https://xn--bcher-kva.de/%C3%A4'],
    ['http://127.0.0.1:3000/x', 'http://127.0.0.1:3000/x'],
    ['http://[::1]/', 'http://[::1]/'],
    ['https://example.com/a b', 'https://example.com/a%20b'],
    ['https://sub-domain.example.co.uk/path?q=ü', 'https://sub-domain.example.co.uk/path?q=%C3%BC'],
    [`https://example.com/${'a'.repeat(2000)}`, `https://example.com/${'a'.repeat(2000)}`],
  ];
  for (const [input, expected] of good) {
    it(`accepts ${describeInput(input)}`, () => assertOk(parseUrl(input), expected, input));
  }

  const bad: unknown[] = [
    '', '   ', 'localhost', 'localhost:3000', 'http://intranet/', 'acme', 'ftp://example.com',
    'mailto:a@b.com', 'javascript:alert(1)', 'data:text/html,hi', 'a@b.com', 'https://user:pw@example.com',
    'https://1234', 'https://0x7f.1', 'https://exa mple.com', 'https://a..b.com', 'https://-bad.com',
    'https://.com', 'http://', 'https://example.123', `https://example.com/${'a'.repeat(2100)}`,
    `https://example.com/${'é'.repeat(1000)}`, 123, null, undefined, {}, [], ['https://example.com'],
  ];
  for (const input of bad) {
    it(`rejects ${describeInput(input)}`, () => assertFails(parseUrl(input), input));
  }

  it('explains the scheme restriction', () => {
    assert.deepEqual(parseUrl('ftp://example.com'), {
      ok: false,
      message: 'Enter a web address starting with http:// or https://.',
    });
  });
});

describe('normalizeUrlForMatch', () => {
  const cases: Array<[string, string]> = [
    ['https://www.Acme.com/about/?x=1', 'acme.com/about'],
    ['http://acme.com', 'acme.com'],
    ['acme.com/', 'acme.com'],
    ['  WWW.ACME.COM  ', 'acme.com'],
    ['https://acme.com:8443/a//', 'acme.com:8443/a'],
    ['https://acme.com:443/a', 'acme.com/a'],
    ['https://acme.com./x#frag', 'acme.com/x'],
    ['https://www.linkedin.com/company/Acme-Inc/', 'linkedin.com/company/acme-inc'],
    ['https://sub.www.acme.com', 'sub.www.acme.com'],
    ['https://www.com/x', 'www.com/x'],
    ['https://bücher.de', 'xn--bcher-kva.de'],
    ['ftp://www.acme.com/x/?y', 'acme.com/x'],
    ['Acme', 'acme'],
    ['', ''],
  ];
  for (const [input, expected] of cases) {
    it(`maps ${JSON.stringify(input)} to ${JSON.stringify(expected)}`, () =>
      assert.equal(normalizeUrlForMatch(input), expected));
  }

  it('gives variants of one site the same key', () => {
    const variants = ['acme.com', 'https://acme.com/', 'http://www.acme.com', 'HTTPS://WWW.ACME.COM/#top', 'acme.com?ref=x'];
    assert.deepEqual(new Set(variants.map(normalizeUrlForMatch)), new Set(['acme.com']));
  });

  it('returns an empty key for non-strings', () => {
    for (const input of [42, null, undefined, {}, []]) assert.equal(normalizeUrlForMatch(input as string), '');
  });
});

describe('normalizeName', () => {
  const cases: Array<[string, string]> = [
    ['ACME, Inc.', 'acme'],
    ['Acme Inc', 'acme'],
    ['acme', 'acme'],
    ['  ACME   Incorporated  ', 'acme'],
    ['Acme L.L.C.', 'acme'],
    ['Société Générale S.A.', 'societe generale'],
    ['Société Générale S. A.', 'societe generale'],
    ['Acme Holdings Co., Ltd.', 'acme holdings'],
    ['Foo Pty Ltd', 'foo'],
    ['Bar GmbH & Co. KG', 'bar'],
    ['Maersk A/S', 'maersk'],
    ['Ørsted A/S', 'orsted'],
    ['Eni S.p.A.', 'eni'],
    ['Coca-Cola Company', 'coca cola'],
    ["Ben & Jerry's", 'ben and jerrys'],
    ['AT&T Inc.', 'at and t'],
    ['  Müller   Straße  ', 'muller strasse'],
    ['ＡＣＭＥ　ＩＮＣ', 'acme'],
    ['3M Company', '3m'],
    ['Texas Instruments', 'texas instruments'],
    ['L.L.C. Partners LLC', 'llc partners'],
    ['グーグル合同会社', 'グーグル合同会社'],
    ['हिन्दी Ltd', 'हिन्दी'],
    ['Inc', 'inc'],
    ['Inc.', 'inc'],
    ['Co. Ltd.', 'co'],
    ['!!!', ''],
    ['', ''],
    ['   ', ''],
  ];
  for (const [input, expected] of cases) {
    it(`maps ${JSON.stringify(input)} to ${JSON.stringify(expected)}`, () => assert.equal(normalizeName(input), expected));
  }

  it('handles long input', () => {
    assert.equal(normalizeName(`${'a '.repeat(50_000)}Inc`), 'a '.repeat(49_999) + 'a');
  });

  it('returns an empty key for non-strings', () => {
    for (const input of [42, null, undefined, {}, [], ['Acme']]) assert.equal(normalizeName(input as string), '');
  });
});

describe('parseIncompleteDate', () => {
  const date = (d: string, day: boolean, month: boolean, year: boolean): IncompleteDate => ({
    date: d,
    incomplete_day: day,
    incomplete_month: month,
    incomplete_year: year,
  });
  const good: Array<[unknown, IncompleteDate | null]> = [
    [null, null],
    [undefined, null],
    ['', null],
    ['  \t', null],
    ['2019', date('2019-01-01', true, true, false)],
    ['2019-03', date('2019-03-01', true, false, false)],
    [' 2019-03-15 ', date('2019-03-15', false, false, false)],
    ['--03-15', date('0004-03-15', false, false, true)],
    ['--02-29', date('0004-02-29', false, false, true)],
    ['--03', date('0004-03-01', true, false, true)],
    ['2020-02-29', date('2020-02-29', false, false, false)],
    ['2000-02-29', date('2000-02-29', false, false, false)],
    ['0001-01-01', date('0001-01-01', false, false, false)],
    ['9999-12-31', date('9999-12-31', false, false, false)],
    [{ date: '2019-03-15' }, date('2019-03-15', false, false, false)],
    [{ date: '2019-03-15', incomplete_day: true }, date('2019-03-01', true, false, false)],
    [{ date: '2019-03-15', incomplete_day: true, incomplete_month: true }, date('2019-01-01', true, true, false)],
    [{ date: '0004-02-29', incomplete_year: true, incomplete_month: false, incomplete_day: false }, date('0004-02-29', false, false, true)],
    [{ date: '2019-02-29', incomplete_year: true }, date('0004-02-29', false, false, true)],
    [{ date: '2019-02-30', incomplete_day: true }, date('2019-02-01', true, false, false)],
    [{ date: null, incomplete_day: true }, null],
    [{ date: '' }, null],
    [{ date: new Date(Date.UTC(2019, 2, 15)), incomplete_day: null }, date('2019-03-15', false, false, false)],
    [new Date(Date.UTC(2019, 2, 15, 23, 59)), date('2019-03-15', false, false, false)],
  ];
  for (const [input, expected] of good) {
    it(`accepts ${describeInput(input)}`, () => assertOk(parseIncompleteDate(input), expected, input));
  }

  const bad: unknown[] = [
    '2019-02-30', '2019-02-29', '1900-02-29', '2019-04-31', '2019-13', '2019-00', '2019-03-00', '0000', '0000-01-01',
    '--13', '--00', '--02-30', '----', '19', '2019-3-5', '2019/03/15', '15.03.2019', '20190315',
    '2019-03-15T00:00:00Z', '٢٠١٩', '２０１９', 'x'.repeat(100_000), 2019, true, [], ['2019'],
    { date: '2019-03-15', incomplete_day: 'yes' }, { date: 20190315 }, { date: 'garbage' },
    { date: '2019-03-15', incomplete_month: true },
    { date: '2019-03-15', incomplete_year: true, incomplete_month: true, incomplete_day: true },
    new Date('invalid'),
  ];
  for (const input of bad) {
    it(`rejects ${describeInput(input)}`, () => assertFails(parseIncompleteDate(input), input));
  }

  it('treats an empty object as having no date', () => {
    assert.deepEqual(parseIncompleteDate({}), parseIncompleteDate({ date: undefined }));
  });

  it('gives specific messages', () => {
    assert.deepEqual(parseIncompleteDate('2019-02-30'), { ok: false, message: 'Enter a day that exists in that month.' });
    assert.deepEqual(parseIncompleteDate('2019-13'), { ok: false, message: 'Enter a month between 01 and 12.' });
    assert.deepEqual(parseIncompleteDate('0000'), { ok: false, message: 'Enter a year between 0001 and 9999.' });
    assert.deepEqual(parseIncompleteDate('March 2019'), {
      ok: false,
      message: 'Enter a date as YYYY, YYYY-MM or YYYY-MM-DD.',
    });
  });
});

describe('formatIncompleteDate', () => {
  const value = (d: string | Date | null, day = false, month = false, year = false) => ({
    date: d,
    incomplete_day: day,
    incomplete_month: month,
    incomplete_year: year,
  });
  const cases: Array<[ReturnType<typeof value>, string | null]> = [
    [value('2019-03-15'), '2019-03-15'],
    [value('2019-03-01', true), '2019-03'],
    [value('2019-01-01', true, true), '2019'],
    [value('0004-03-15', false, false, true), '--03-15'],
    [value('0004-02-29', false, false, true), '--02-29'],
    [value('0004-03-01', true, false, true), '--03'],
    [value('2019-03-15', false, true), '2019'],
    [value('0001-01-01'), '0001-01-01'],
    [value(' 2019-03-15T00:00:00.000Z'), '2019-03-15'],
    [value(new Date(Date.UTC(2019, 2, 15))), '2019-03-15'],
    [value(new Date('2019-03-15T23:30:00Z')), '2019-03-15'],
    [value(new Date(Date.UTC(2019, 2, 15)), true), '2019-03'],
    [value(null), null],
    [value('0004-01-01', true, true, true), null],
    [value(new Date(NaN)), null],
    [value('garbage'), null],
    [value('2019-13-01'), null],
    [value('0000-01-01'), null],
  ];
  for (const [input, expected] of cases) {
    it(`formats ${JSON.stringify(input)} as ${JSON.stringify(expected)}`, () =>
      assert.equal(formatIncompleteDate(input), expected));
  }

  it('inverts parseIncompleteDate', () => {
    for (const text of ['2019', '2019-03', '2019-03-15', '--03-15', '--02-29', '--03', '0001', '9999-12-31']) {
      const parsed = parseIncompleteDate(text);
      assert.ok(parsed.ok && parsed.value);
      assert.equal(formatIncompleteDate(parsed.value), text);
      assert.deepEqual(parseIncompleteDate(formatIncompleteDate(parsed.value)), parsed);
    }
  });

  it('returns null for non-objects', () => {
    for (const input of [null, undefined, 42, 'x', []]) {
      assert.equal(formatIncompleteDate(input as unknown as ReturnType<typeof value>), null);
    }
  });
});

describe('never throws', () => {
  type Fn = (input: never) => unknown;
  const fns: Array<[string, Fn]> = [
    ['parseEmail', parseEmail],
    ['parsePhone', parsePhone],
    ['parsePhone with odd country', (input: never) => parsePhone(input, {} as string)],
    ['parseUrl', parseUrl],
    ['normalizeUrlForMatch', normalizeUrlForMatch],
    ['normalizeName', normalizeName],
    ['parseIncompleteDate', parseIncompleteDate],
    ['formatIncompleteDate', formatIncompleteDate],
  ];
  for (const [name, fn] of fns) {
    it(name, () => {
      for (const input of hostile) {
        assert.doesNotThrow(() => fn(input as never), `${name}(${describeInput(input)})`);
      }
    });
  }
});
