import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Gazetteer, MIN_EXAMPLES, MODEL_VERSION, TenantModel, extractEntities, normalizeName, type Mention, type ReviewDecision } from './index.ts';
import { contextOf } from './model.ts';
import { tokenize } from './tokens.ts';

const of = (mentions: Mention[], type: Mention['type']) => mentions.filter((mention) => mention.type === type).map((mention) => mention.text);

describe('extractEntities: names', () => {
  it('never makes common words entities, at sentence starts, in headlines or as months', () => {
    const text = [
      'Will the merger survive? May was slow. The board met on Monday.',
      'According to the filing, revenue fell. Hope is fading.',
      'Will Rate Cuts Come Before Summer? Investors Are Divided',
      'May Sales Beat Forecasts at European Carmakers',
      'We will see. It may rain in May and in April.',
    ].join('\n');
    const { mentions } = extractEntities(text);
    assert.deepEqual(of(mentions, 'PER'), []);
    assert.deepEqual(of(mentions, 'ORG'), []);
  });

  it('finds names that contain those words when cues say so', () => {
    const { mentions } = extractEntities('Prime Minister Theresa May met Will Harcourt, who founded Brightwater Capital in 2011.');
    assert.deepEqual(of(mentions, 'PER'), ['Theresa May', 'Will Harcourt']);
    assert.deepEqual(of(mentions, 'ORG'), ['Brightwater Capital']);
  });

  it('reads legal forms as organizations', () => {
    const { mentions } = extractEntities(
      'Reiner Chemie GmbH bought the unit from Helvion AG. Orbex Holdings plc, Nordlys Shipping ASA, Quillfeather Inc. and Banco Meridiano S.A. agreed.',
    );
    assert.deepEqual(of(mentions, 'ORG'), ['Reiner Chemie GmbH', 'Helvion AG', 'Orbex Holdings plc', 'Nordlys Shipping ASA', 'Quillfeather Inc.', 'Banco Meridiano S.A.']);
    const orbex = mentions.find((mention) => mention.text === 'Orbex Holdings plc')!;
    assert.equal(orbex.normalized, 'orbex holdings');
  });

  it('reads titles and roles as people', () => {
    const { mentions } = extractEntities('Dr. Amara Nwosu spoke first. Then chief executive Tamsin Okafor told reporters that Ms Obi agreed.');
    assert.deepEqual(of(mentions, 'PER'), ['Amara Nwosu', 'Tamsin Okafor', 'Obi']);
  });

  it('reads appositions: the person, and the organization of the role', () => {
    const { mentions } = extractEntities('Pieter van der Berg, the chief executive of Delta Havens, said he saw no need for state aid.');
    assert.deepEqual(of(mentions, 'PER'), ['Pieter van der Berg']);
    assert.deepEqual(of(mentions, 'ORG'), ['Delta Havens']);
  });

  it('recognizes a name again later in the text', () => {
    const { mentions } = extractEntities('Anna Weber, 52, joined Kestrel Partners in May. Weber said Kestrel would grow.');
    assert.deepEqual(of(mentions, 'PER'), ['Anna Weber', 'Weber']);
    assert.deepEqual(of(mentions, 'ORG'), ['Kestrel Partners', 'Kestrel']);
  });

  it('gives offsets into the input and the sentence around each name', () => {
    const text = 'First line.\nThe lender Caixa Nova lost money.';
    const caixa = extractEntities(text).mentions.find((mention) => mention.type === 'ORG')!;
    assert.equal(text.slice(caixa.start, caixa.end), 'Caixa Nova');
    assert.equal(text.slice(caixa.sentence.start, caixa.sentence.end), 'The lender Caixa Nova lost money.');
    assert.ok(caixa.confidence > 0 && caixa.confidence <= 1);
  });
});

describe('extractEntities: gazetteer', () => {
  const gazetteer = new Gazetteer([
    { id: 'org-1', type: 'ORG', names: ['Valdran Energy ASA', 'Valdran'] },
    { id: 'per-1', type: 'PER', names: ['Tamsin Okafor'] },
    { id: 'geo-1', type: 'GEO', names: ['Oslo'] },
    { id: 'kw-1', type: 'KEYWORD', names: ['offshore wind'] },
    { id: 'org-2', type: 'ORG', names: ['Will'] },
  ]);

  it('links known names and aliases without any cue, longest match first', () => {
    const { mentions } = extractEntities('Valdran expands in Oslo. valdran energy is not capitalized. Offshore wind is cheap; Okafor and Tamsin Okafor agree.', { gazetteer });
    const linked = mentions.filter((mention) => mention.gazetteerId).map((mention) => [mention.type, mention.text, mention.gazetteerId]);
    assert.deepEqual(linked, [
      ['ORG', 'Valdran', 'org-1'],
      ['GEO', 'Oslo', 'geo-1'],
      ['KEYWORD', 'Offshore wind', 'kw-1'],
      ['PER', 'Tamsin Okafor', 'per-1'],
    ]);
  });

  it('links names the rules found to entries with that normalized name', () => {
    const { mentions } = extractEntities('The utility Valdran Energy AS said so.', { gazetteer });
    const valdran = mentions.find((mention) => mention.type === 'ORG')!;
    assert.equal(valdran.gazetteerId, 'org-1');
    assert.deepEqual(gazetteer.lookup('VALDRAN ENERGY', 'ORG').map((entry) => entry.id), ['org-1']);
  });

  it('never matches a known name that is a common word', () => {
    const { mentions } = extractEntities('Will it work? It will.', { gazetteer });
    assert.deepEqual(mentions.filter((mention) => mention.type === 'ORG'), []);
  });

  it('normalizes names for matching', () => {
    assert.equal(normalizeName('The Acme Group Ltd.', 'ORG'), 'acme group');
    assert.equal(normalizeName('Dr. Zoë Müller', 'PER'), 'zoe muller');
  });
});

describe('extractEntities: money and dates', () => {
  const moneyOf = (text: string) => extractEntities(text).mentions.filter((mention) => mention.type === 'MONEY').map((mention) => ({ text: mention.text, ...mention.money }));

  it('reads symbols, codes, words and multipliers', () => {
    assert.deepEqual(moneyOf('It paid $5M, then EUR 2.3 billion, 5 million euros, £300k, US$12.5 million and CHF 450,000.'), [
      { text: '$5M', amount: 5_000_000, currency: 'USD' },
      { text: 'EUR 2.3 billion', amount: 2_300_000_000, currency: 'EUR' },
      { text: '5 million euros', amount: 5_000_000, currency: 'EUR' },
      { text: '£300k', amount: 300_000, currency: 'GBP' },
      { text: 'US$12.5 million', amount: 12_500_000, currency: 'USD' },
      { text: 'CHF 450,000', amount: 450_000, currency: 'CHF' },
    ]);
    assert.deepEqual(moneyOf('Costs: 1.500 EUR and ¥80 billion and ₹450 crore.'), [
      { text: '1.500 EUR', amount: 1500, currency: 'EUR' },
      { text: '¥80 billion', amount: 80_000_000_000, currency: 'JPY' },
      { text: '₹450 crore', amount: 4_500_000_000, currency: 'INR' },
    ]);
  });

  it('ignores numbers without a currency', () => {
    assert.deepEqual(moneyOf('In 2024 it sold 5 million units to 300 clients, up 12%.'), []);
  });

  it('reads the period of an amount', () => {
    assert.deepEqual(moneyOf('A fee of $2,000 per month, CHF 75 million a year, and EUR 212 million in Q2 2024 or $1bn for the second quarter of 2023.').map((money) => money.period), [
      'per month', 'per year', 'Q2 2024', 'Q2 2023',
    ]);
  });

  it('reads years, quarters, months and full dates', () => {
    const dates = extractEntities('In 2019, Q2 2024, the third quarter of 2023, March 2024, 5 March 2024, June 30, 2024, 2024-07-01 and FY2025.')
      .mentions.filter((mention) => mention.type === 'DATE')
      .map((mention) => [mention.text, mention.date]);
    assert.deepEqual(dates, [
      ['2019', { year: 2019 }],
      ['Q2 2024', { year: 2024, quarter: 2 }],
      ['third quarter of 2023', { year: 2023, quarter: 3 }],
      ['March 2024', { year: 2024, month: 3 }],
      ['5 March 2024', { year: 2024, month: 3, day: 5 }],
      ['June 30, 2024', { year: 2024, month: 6, day: 30 }],
      ['2024-07-01', { year: 2024, month: 7, day: 1 }],
      ['FY2025', { year: 2025 }],
    ]);
  });

  it('makes ledger candidates of money with an organization and a time in one sentence', () => {
    const { ledger } = extractEntities('Orbex Holdings paid EUR 40 million in Q3 2024, said Anna Weber. Somebody paid $5M.');
    assert.equal(ledger.length, 1);
    const [entry] = ledger;
    assert.equal(entry!.money?.text, 'EUR 40 million');
    assert.equal(entry!.year, 2024);
    assert.equal(entry!.quarter, 3);
    assert.deepEqual(entry!.organizations.map((mention) => mention.text), ['Orbex Holdings']);
    assert.deepEqual(entry!.people.map((mention) => mention.text), ['Anna Weber']);
    assert.equal(entry!.snippet, 'Orbex Holdings paid EUR 40 million in Q3 2024, said Anna Weber.');
  });
});

describe('extractEntities: contacts', () => {
  it('finds e-mails (lower-cased), phones (E.164) and URLs (normalized)', () => {
    const text = 'Write to Anna.Weber@Kestrel-Partners.example, call +44 20 7946 0018 or (212) 555-0187, see https://WWW.Example.com/press?id=4#top or www.example.org.';
    const plain = extractEntities(text).mentions;
    assert.deepEqual(plain.filter((mention) => mention.type === 'EMAIL').map((mention) => mention.normalized), ['anna.weber@kestrel-partners.example']);
    assert.deepEqual(plain.filter((mention) => mention.type === 'PHONE').map((mention) => mention.normalized), ['+442079460018']);
    assert.deepEqual(plain.filter((mention) => mention.type === 'URL').map((mention) => [mention.text, mention.normalized]), [
      ['https://WWW.Example.com/press?id=4#top', 'https://www.example.com/press?id=4'],
      ['www.example.org', 'https://www.example.org'],
    ]);
    const american = extractEntities(text, { defaultPhoneCountry: 'US' }).mentions;
    assert.deepEqual(american.filter((mention) => mention.type === 'PHONE').map((mention) => mention.normalized), ['+442079460018', '+12125550187']);
  });
});

describe('extractEntities: hostile input', () => {
  it('treats NUL and other control characters as spaces, keeping offsets', () => {
    const text = 'Helvion\u0000AG\u0007said\u0000that Reiner Chemie GmbH paid \u0000$5M.';
    const { mentions } = extractEntities(text);
    const organization = mentions.find((mention) => mention.text === 'Reiner Chemie GmbH')!;
    assert.equal(text.slice(organization.start, organization.end), 'Reiner Chemie GmbH');
    assert.deepEqual(of(mentions, 'MONEY'), ['$5M']);
  });

  it('reads a 1 MB single line of each awkward shape', () => {
    for (const text of ['a'.repeat(1_000_000), '@'.repeat(1_000_000), 'a@'.repeat(500_000), '1,'.repeat(500_000), 'www.'.repeat(250_000), 'Aa '.repeat(333_333)]) {
      const { mentions } = extractEntities(text);
      assert.ok(Array.isArray(mentions));
    }
    const repeated = 'The lender Caixa Nova paid EUR 5 million in Q2 2024 '.repeat(20_000);
    const { mentions, ledger } = extractEntities(repeated);
    assert.equal(of(mentions, 'MONEY').length, 20_000);
    assert.equal(ledger.length, 20_000);
  });

  it('reads a title written with a period as a title ("Dr.", "Prof.")', () => {
    const { mentions } = extractEntities('Dr. Quorra Vantablack joins the board. Speaker: Prof. Ixelle Dumarque');
    assert.deepEqual(of(mentions, 'PER'), ['Quorra Vantablack', 'Ixelle Dumarque']);
  });

  it('takes a sentence of names for a headline only when its long words are capitalized', () => {
    const names = contextOf(tokenize('Lucia Brandt and Javier Osei both left Fennimore Partners in 2023.').tokens);
    assert.equal(names.titleCaseSentences.size, 0);
    const headline = contextOf(tokenize('Profile: Lucia Brandt on Ports, Freight and Patience').tokens);
    assert.equal(headline.titleCaseSentences.size, 1);
  });

  it('reads only maxChars characters', () => {
    const { mentions } = extractEntities('Dr. Anna Weber met Dr. Omar Farouk.', { maxChars: 15 });
    assert.deepEqual(of(mentions, 'PER'), ['Anna Weber']);
  });
});

describe('TenantModel', () => {
  const text = (name: string) => `Talks with ${name} went on late into the night in Oslo.`;
  const decision = (name: string, accepted: boolean, type: 'PER' | 'ORG' = 'ORG'): ReviewDecision => {
    const snippet = text(name);
    const start = snippet.indexOf(name);
    return { text: snippet, start, end: start + name.length, type, accepted };
  };

  it('learns names the rules miss, survives JSON, and joins the next extraction', () => {
    const unseen = 'Talks with Zentrobel went on late into the night. Talks with Marquessa Lindgren went on too.';
    assert.deepEqual(of(extractEntities(unseen).mentions, 'ORG'), []);

    const model = new TenantModel();
    const decisions: ReviewDecision[] = [];
    for (const name of ['Orvantis', 'Quellmark', 'Tessaro', 'Brandvik', 'Zentrobel', 'Halvora', 'Kestrum', 'Valdran', 'Nordlys', 'Pesalink', 'Arcadine', 'Mosvik']) {
      decisions.push(decision(name, true));
    }
    for (const name of ['Talks', 'Night', 'Monday', 'Oslo']) decisions.push(decision(name, false));
    for (const name of ['Marquessa Lindgren', 'Okello Barasa', 'Ines Moreau', 'Tariq Hassan', 'Lena Vogt', 'Ravi Menon', 'Sara Quist', 'Ivo Petrov']) {
      decisions.push(decision(name, true, 'PER'));
    }
    model.train(decisions);
    const restored = TenantModel.fromJSON(JSON.parse(JSON.stringify(model.toJSON())));
    assert.ok(JSON.stringify(restored.toJSON()).length < 1_000_000);
    assert.deepEqual(restored.toJSON(), model.toJSON());

    const { mentions } = extractEntities(unseen, { model: restored });
    assert.deepEqual(of(mentions, 'ORG'), ['Zentrobel']);
    assert.deepEqual(of(mentions, 'PER'), ['Marquessa Lindgren']);
  });

  it('adds no lone word that is also a word, and nothing in a Title Case headline', () => {
    const model = new TenantModel();
    const decisions: ReviewDecision[] = [];
    for (const name of ['Grant Ellery', 'Mark Odell', 'Hope Castellan', 'Bill Saranov', 'Patience Adjoa', 'Marquessa Lindgren', 'Okello Barasa', 'Ines Moreau', 'Tariq Hassan', 'Lena Vogt']) {
      decisions.push(decision(name, true, 'PER'));
    }
    for (const name of ['Orvantis', 'Quellmark', 'Tessaro', 'Brandvik', 'Halvora', 'Kestrum']) decisions.push(decision(name, true));
    // Lone given names at the start of a sentence that the analysts added ("Ana wants…").
    for (const name of ['Ana', 'Kofi', 'Mirela', 'Tomas', 'Grace']) {
      decisions.push({ text: `${name} wants the summary by noon.`, start: 0, end: name.length, type: 'PER', accepted: true });
    }
    model.train(decisions);
    assert.ok(model.canAdd);
    for (const sentence of ['Grant money for the project ran out, the ministry said.', 'Hope faded for a quick deal on Friday.', 'Mark the date of the annual meeting.']) {
      assert.deepEqual(of(extractEntities(sentence, { model }).mentions, 'PER'), [], sentence);
    }
    const sentence = 'Talks with Marquessa Lindgren went on.';
    assert.deepEqual(of(extractEntities(sentence, { model }).mentions, 'PER'), ['Marquessa Lindgren']);
    // The tenant model's own rule (the trained tagger reads Title Case lines on its own features).
    assert.deepEqual(of(extractEntities('Profile: Marquessa Lindgren on Ports, Freight and Patience', { model, tagger: null }).mentions, 'PER'), []);
  });

  it('drops names analysts keep rejecting', () => {
    const snippet = 'The lender Foo Bar lost money.';
    const start = snippet.indexOf('Foo Bar');
    assert.deepEqual(of(extractEntities(snippet).mentions, 'ORG'), ['Foo Bar']);
    const model = new TenantModel();
    model.train(Array.from({ length: MIN_EXAMPLES }, () => ({ text: snippet, start, end: start + 7, type: 'ORG' as const, accepted: false })));
    assert.deepEqual(of(extractEntities(snippet, { model }).mentions, 'ORG'), []);
  });

  it('overrules the rules only once trained on enough decisions', () => {
    const reviewed = 'Orla Brennan, founder of Tidewater Analytics Ltd, met Piet Van Dijk of Kestrel Freight BV.';
    const span = (name: string) => ({ start: reviewed.indexOf(name), end: reviewed.indexOf(name) + name.length });
    const model = new TenantModel();
    model.train([
      { text: reviewed, ...span('Tidewater Analytics Ltd'), type: 'ORG', accepted: true },
      { text: reviewed, ...span('Kestrel Freight BV'), type: 'ORG', accepted: false },
    ]);
    const next = 'Kestrel Freight BV and Tidewater Analytics Ltd signed a deal, said Aoife Murphy, a spokeswoman.';
    assert.deepEqual(of(extractEntities(next, { model }).mentions, 'PER'), ['Aoife Murphy']);
    assert.deepEqual(of(extractEntities(next, { model }).mentions, 'ORG'), ['Kestrel Freight BV', 'Tidewater Analytics Ltd']);
  });

  it('stays under 1 MB of JSON however much it learns', () => {
    const model = new TenantModel();
    const decisions: ReviewDecision[] = [];
    for (let index = 0; index < 3000; index++) {
      const name = `Zq${index.toString(36)}${'x'.repeat(index % 90)} Holdings`;
      const snippet = `Word${index} said ${name} bought Thing${index} from Place${index} on Monday.`;
      const start = snippet.indexOf(name);
      decisions.push({ text: snippet, start, end: start + name.length, type: 'ORG', accepted: index % 3 !== 0 });
    }
    model.train(decisions);
    const json = JSON.stringify(model.toJSON());
    assert.ok(json.length < 1_000_000, `${json.length} bytes`);
    assert.equal(TenantModel.fromJSON(JSON.parse(json)).examples, model.examples);
  });

  it('rejects malformed JSON with the field named', () => {
    assert.throws(() => TenantModel.fromJSON({ version: MODEL_VERSION + 1 }), /model\.version/);
    assert.throws(() => TenantModel.fromJSON({ version: MODEL_VERSION, weights: { bias: [1, 2] } }), /model\.weights\["bias"\]/);
  });
});
