import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { groupMentions } from '../../modules/rawdata/entity-finding.ts';
import { extractEntities, type Mention } from './index.ts';
import { contextOf } from './model.ts';
import { vetoed } from './names.ts';
import { EntityTagger, TAGGER_VERSION, defaultTagger, spansOf, type TaggerFile } from './tagger.ts';
import { tokenize } from './tokens.ts';

const of = (mentions: Mention[], type: Mention['type']) => mentions.filter((mention) => mention.type === type).map((mention) => mention.text);

function tagged(text: string): string[] {
  const { tokens } = tokenize(text);
  return defaultTagger({ strict: true })!
    .tag(contextOf(tokens))
    .map((span) => `${span.type}:${text.slice(tokens[span.firstToken]!.start, tokens[span.endToken - 1]!.end)}`);
}

describe('the trained tagger', () => {
  it('loads the committed weights file and tags people, organizations and places', () => {
    const tagger = defaultTagger({ strict: true })!;
    assert.ok(tagger.lists.given.has('miriam'), 'the name lists travel with the weights');
    assert.ok(tagger.lists.city.has('madrid'));
    const found = tagged('Jonas Lindqvist said Google would open an office in Stockholm next year.');
    assert.ok(found.includes('PER:Jonas Lindqvist'), found.join());
    assert.ok(found.includes('ORG:Google'), found.join());
    assert.ok(!found.some((name) => name.endsWith(':Stockholm') && !name.startsWith('LOC')), found.join());
  });

  it('gives nothing in a sentence of common words', () => {
    assert.deepEqual(tagged('the deal would close in the second quarter, the company said.'), []);
  });

  it('refuses weights of another version', () => {
    const file: TaggerFile = { version: TAGGER_VERSION + 1, tags: [], meta: {}, lists: {}, scale: 100, weights: {} };
    assert.throws(() => EntityTagger.fromFile(file), /version/);
  });

  it('turns BIO tags into spans confident as their least sure token', () => {
    const spans = spansOf({ tags: ['B-PER', 'I-PER', 'O', 'B-ORG', 'B-ORG'], margins: Float32Array.from([10, 0, 5, 10, 10]) });
    assert.deepEqual(spans.map((span) => [span.type, span.firstToken, span.endToken]), [['PER', 0, 2], ['ORG', 3, 4], ['ORG', 4, 5]]);
    assert.equal(spans[0]!.confidence, 0.5);
  });
});

describe('extractEntities with the tagger', () => {
  it('reads the news paragraph of issue 29: three organizations, two people, short forms folded in', () => {
    const text =
      'Orion Freight Holdings said on Tuesday it had agreed to buy Baltic Rail Logistics for $420 million. ' +
      'Chief executive Miriam Okonkwo told reporters the deal would close in the second quarter of 2025. ' +
      "Baltic Rail's founder, Jonas Lindqvist, will join the board of Orion Freight Holdings. " +
      'The acquisition was advised by Kestrel Partners, according to a statement from Orion Freight.';
    const { mentions } = extractEntities(text);
    const entities = groupMentions(mentions.filter((mention) => mention.type === 'PER' || mention.type === 'ORG'));
    const names = (type: 'PER' | 'ORG') => entities.filter((entity) => entity.type === type).map((entity) => entity.text).sort();
    assert.deepEqual(names('ORG'), ['Baltic Rail Logistics', 'Kestrel Partners', 'Orion Freight Holdings']);
    assert.deepEqual(names('PER'), ['Jonas Lindqvist', 'Miriam Okonkwo']);
    const orion = entities.find((entity) => entity.text === 'Orion Freight Holdings')!;
    assert.deepEqual(orion.mentions.map((mention) => mention.text), ['Orion Freight Holdings', 'Orion Freight Holdings', 'Orion Freight']);
    const baltic = entities.find((entity) => entity.text === 'Baltic Rail Logistics')!;
    assert.deepEqual(baltic.mentions.map((mention) => mention.text), ['Baltic Rail Logistics', 'Baltic Rail']);
  });

  it('folds a short form into no name when two names as long could own it', () => {
    const text = 'Baltic Rail Logistics AB and Baltic Rail Freight AB were both bidding. Baltic Rail declined to comment.';
    const short = extractEntities(text).mentions.find((mention) => mention.text === 'Baltic Rail');
    assert.ok(!short || short.normalized === 'baltic rail', JSON.stringify(short));
  });

  it('folds a surname into the person named in full', () => {
    const { mentions } = extractEntities('Chief executive Miriam Okonkwo told reporters the deal would close. Okonkwo declined to say more.');
    const people = groupMentions(mentions.filter((mention) => mention.type === 'PER'));
    assert.deepEqual(people.map((person) => [person.text, person.mentions.length]), [['Miriam Okonkwo', 2]]);
  });

  it('finds people in a sentence of mostly capitalized words', () => {
    assert.deepEqual(of(extractEntities('Signed by Jane Smith and Peter Brown.').mentions, 'PER'), ['Jane Smith', 'Peter Brown']);
  });

  it('leaves the rules alone with tagger: null', () => {
    assert.deepEqual(of(extractEntities('Signed by Jane Smith and Peter Brown.', { tagger: null }).mentions, 'PER'), []);
  });

  it('makes no names of version numbers, hyphenated words and file formats', () => {
    const { mentions } = extractEntities('Open it in MS-Word, then see part II of the Non-regular XMLnamespaces guide.');
    assert.deepEqual([...of(mentions, 'PER'), ...of(mentions, 'ORG')], []);
  });
});

describe('social posts', () => {
  const casing = (text: string) => {
    const context = contextOf(tokenize(text).tokens);
    return { lower: [...context.lowerCaseSentences], caps: [...context.allCapsSentences] };
  };

  it('tells sentences written without capitals, or all in capitals, from mixed ones', () => {
    assert.deepEqual(casing("can't believe ted pick is already 2 yrs in as CEO. anyway MS earnings thurs"), { lower: [0], caps: [] });
    assert.deepEqual(casing("lol @Elonmusk really posted that at 3am. I'm done"), { lower: [0, 1], caps: [] }, 'a handle and "I\'m" leave the casing alone');
    assert.deepEqual(casing('GOOGLE TO BUY FITBIT FOR $2.1BN'), { lower: [], caps: [0] });
    assert.deepEqual(casing('Goldman Sachs cut its oil price forecast on Wednesday.\nthe rest is noise here'), { lower: [1], caps: [] });
    assert.deepEqual(casing('Orion Freight Holdings said on Tuesday it had agreed to buy Baltic Rail Logistics.'), { lower: [], caps: [] });
    assert.deepEqual(casing('thx carlos'), { lower: [], caps: [] }, 'too short to tell, in a text too short to tell');
  });

  it('does not veto a lower-case word as "written in lower case elsewhere" for being lower case itself', () => {
    const context = contextOf(tokenize('@colgo hey, congrats to you and the team! Apple pie? we ate apple pie.').tokens);
    const at = (text: string) => context.tokens.findIndex((token) => token.text === text);
    assert.equal(vetoed(context, at('colgo'), at('colgo') + 1), false);
    assert.equal(vetoed(context, at('Apple'), at('Apple') + 1), true);
  });

  it('finds names in a post written without capitals, and lower-case handles', () => {
    const { mentions } = extractEntities('met carlos and jensen at the google office yesterday, great chat');
    assert.deepEqual(of(mentions, 'PER'), ['carlos', 'jensen']);
    assert.deepEqual(of(mentions, 'ORG'), ['google']);
    const handle = extractEntities('lol @colgo hey, congrats to you and the team!').mentions.find((mention) => mention.type === 'PER');
    assert.equal(handle?.text, '@colgo');
    assert.equal(handle?.normalized, 'colgo', 'the normalized name leaves the sigil out');
  });

  it('keeps a handle whole: its sigil and every part of it', () => {
    for (const text of ['congrats @angie_weather on the new job', 'Thanks for the shoutout @Staceylee_ !', 'Big win for #Google today']) {
      for (const mention of extractEntities(text).mentions) {
        if (!/^[@#]/.test(mention.text)) continue;
        const end = mention.start + (/^[@#][\p{L}\p{N}_]+/u.exec(text.slice(mention.start))?.[0].length ?? 0);
        assert.equal(mention.end, end, `${mention.text} in ${text}`);
      }
    }
  });
});
