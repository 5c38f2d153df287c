/**
 * Linking quality (issue 16): how often a name found in a text is linked to the right record of
 * the tenant's knowledge base, and how often it is linked when it should not be.
 *
 * bench/linking/kb.json is a small knowledge base (organizations with aliases, e-mails and URLs;
 * people with nicknames, legal names, e-mails and profile URLs; near-miss names and people who
 * share a family name); bench/linking/passages.md holds passages whose every person and
 * organization is labelled with the record it refers to, or `new`. The script creates the
 * records through the API (the engine: name keys, URL keys, search columns as in production) in
 * a fresh tenant, then runs the real finding and linking code (modules/rawdata/entity-finding.ts:
 * the gazetteer, the tenant model, the linking queries) on each passage with its source URL.
 *
 *   node --import tsx bench/linking.ts [postgres://…/db] [--errors]
 *
 * In-memory PGlite by default; a PostgreSQL server when a URL is given (or TEST_DATABASE_URL):
 * a fresh database is made there and dropped at the end.
 *
 * Counted per entity of a passage (all mentions of one name in a passage are linked together):
 * - precision: links to the labelled record / all links made (a link of a `new` name, of an
 *   unlabelled span or of the wrong type is wrong);
 * - recall: labelled (passage, record) pairs linked to their record / all such pairs; also
 *   among the pairs the extractor found at all (a name the extractor misses cannot be linked).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const showErrors = args.includes('--errors');
const databaseUrl = args.find((arg) => !arg.startsWith('--'));
if (databaseUrl) process.env['TEST_DATABASE_URL'] = databaseUrl;

// Imported after TEST_DATABASE_URL is settled (the test database reads it when created).
const { createTestApp } = await import('../server/src/test/test-app.ts');
const { inTenant, systemActor } = await import('../server/src/resources/context.ts');
const { findEntities } = await import('../server/src/modules/rawdata/entity-finding.ts');
type LinkedEntity = import('../server/src/modules/rawdata/entity-finding.ts').LinkedEntity;

type Kind = 'organizations' | 'people';
interface KbRecord {
  key: string;
  [field: string]: unknown;
}
interface Knowledge {
  organizations: KbRecord[];
  people: KbRecord[];
}
interface Label {
  type: 'PER' | 'ORG';
  key: string;
  start: number;
  end: number;
  text: string;
}
interface Passage {
  id: string;
  source: string | null;
  text: string;
  labels: Label[];
}

const MARKUP = /\[([^\]]+)\]\((PER|ORG):([a-z0-9-]+)\)/g;
const LINE = /^(l\d{3}) \| (\S+) \| (.+)$/;

export function parsePassages(source: string): Passage[] {
  const passages: Passage[] = [];
  for (const line of source.split('\n')) {
    const match = LINE.exec(line.trim());
    if (!match) continue;
    const [, id, url, marked] = match as unknown as [string, string, string, string];
    if (passages.some((passage) => passage.id === id)) throw new Error(`passage ${id} appears twice`);
    const unescaped = marked.replace(/\\n/g, '\n');
    let text = '';
    let last = 0;
    const labels: Label[] = [];
    for (const label of unescaped.matchAll(MARKUP)) {
      text += unescaped.slice(last, label.index);
      const start = text.length;
      text += label[1];
      labels.push({ type: label[2] as 'PER' | 'ORG', key: label[3]!, start, end: text.length, text: label[1]! });
      last = label.index + label[0].length;
    }
    text += unescaped.slice(last);
    if (/\[[^\]]*\]\((PER|ORG)/.test(text)) throw new Error(`passage ${id}: unparsed markup`);
    passages.push({ id, source: url === '-' ? null : url, text, labels });
  }
  return passages;
}

const knowledge = JSON.parse(readFileSync(path.join(here, 'linking', 'kb.json'), 'utf8')) as Knowledge;
const passages = parsePassages(readFileSync(path.join(here, 'linking', 'passages.md'), 'utf8'));
for (const passage of passages) {
  for (const label of passage.labels) {
    const records = label.type === 'ORG' ? knowledge.organizations : knowledge.people;
    if (label.key !== 'new' && !records.some((record) => record.key === label.key)) throw new Error(`${passage.id}: no ${label.type} record ${label.key}`);
  }
}

const t = await createTestApp();
try {
  const tenant = await t.createTenant('linking');
  await t.createUser(tenant, 'admin@linking.test', { is_admin: true });
  const token = await t.login(tenant, 'admin@linking.test');
  const keyOf = new Map<string, { kind: Kind; key: string }>();
  for (const kind of ['organizations', 'people'] as const) {
    for (const { key, ...fields } of knowledge[kind]) {
      const created = await t.request(tenant, { method: 'POST', url: `/api/v1/assets/${kind}/`, token, payload: fields });
      if (created.statusCode !== 201) throw new Error(`${kind} ${key}: ${created.statusCode} ${created.body}`);
      keyOf.set(String(created.json().id), { kind, key });
    }
  }

  const actor = systemActor(tenant.id);
  const counts = { links: 0, right: 0, wrongNew: 0, wrongRecord: 0, wrongUnlabelled: 0, goldPairs: 0, foundPairs: 0, linkedPairs: 0, newEntities: 0 };
  const byEvidence = new Map<string, { links: number; right: number }>();
  const errors: string[] = [];
  const started = performance.now();
  for (const passage of passages) {
    const { entities } = await inTenant(t.db, actor, async (ctx) => (await findEntities(ctx, passage.text, { sourceUrl: passage.source })).link(ctx));
    const names = entities.filter((entity) => entity.type === 'PER' || entity.type === 'ORG');
    const labelOf = (entity: LinkedEntity) => passage.labels.find((label) => entity.mentions.some((mention) => mention.start < label.end && label.start < mention.end));
    const gold = new Map<string, Label>();
    for (const label of passage.labels) if (label.key !== 'new') gold.set(`${label.type}:${label.key}`, label);
    const found = new Set<string>();
    const linked = new Set<string>();
    for (const entity of names) {
      const label = labelOf(entity);
      if (label) found.add(`${label.type}:${label.key}`);
      if (label?.key === 'new') counts.newEntities += 1;
      if (!entity.record) {
        if (label && label.key !== 'new') errors.push(`${passage.id} missed   ${entity.type} ${JSON.stringify(entity.text)} → should be ${label.key}`);
        continue;
      }
      const record = keyOf.get(entity.record.id);
      const evidence = byEvidence.get(entity.linkedBy ?? '?') ?? { links: 0, right: 0 };
      byEvidence.set(entity.linkedBy ?? '?', evidence);
      counts.links += 1;
      evidence.links += 1;
      const expectedKind: Kind | null = label ? (label.type === 'ORG' ? 'organizations' : 'people') : null;
      if (label && label.key !== 'new' && record?.key === label.key && record.kind === expectedKind) {
        counts.right += 1;
        evidence.right += 1;
        linked.add(`${label.type}:${label.key}`);
        continue;
      }
      if (!label) counts.wrongUnlabelled += 1;
      else if (label.key === 'new') counts.wrongNew += 1;
      else counts.wrongRecord += 1;
      errors.push(`${passage.id} WRONG    ${entity.type} ${JSON.stringify(entity.text)} → ${record?.kind}:${record?.key} by ${entity.linkedBy} (label: ${label ? label.key : 'none'})`);
    }
    for (const [pair, label] of gold) {
      counts.goldPairs += 1;
      if (found.has(pair)) counts.foundPairs += 1;
      else errors.push(`${passage.id} unfound  ${label.type} ${JSON.stringify(label.text)} (${label.key}): the extractor did not find it`);
      if (linked.has(pair)) counts.linkedPairs += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;

  const fmt = (part: number, whole: number) => (whole === 0 ? '–' : (part / whole).toFixed(3));
  const labels = passages.flatMap((passage) => passage.labels);
  console.log(
    `${passages.length} passages, ${labels.length} labelled mentions (${labels.filter((label) => label.key !== 'new').length} of records, ${labels.filter((label) => label.key === 'new').length} new); ` +
      `knowledge base ${knowledge.organizations.length} organizations, ${knowledge.people.length} people; PostgreSQL; ${seconds.toFixed(1)} s\n`,
  );
  console.log('| | count | |');
  console.log('|---|---|---|');
  console.log(`| links made | ${counts.links} | |`);
  console.log(`| right | ${counts.right} | **precision ${fmt(counts.right, counts.links)}** |`);
  console.log(`| wrong: a new name linked | ${counts.wrongNew} | |`);
  console.log(`| wrong: another record | ${counts.wrongRecord} | |`);
  console.log(`| wrong: an unlabelled span linked | ${counts.wrongUnlabelled} | |`);
  console.log(`| (passage, record) pairs labelled | ${counts.goldPairs} | |`);
  console.log(`| … found by the extractor | ${counts.foundPairs} | ${fmt(counts.foundPairs, counts.goldPairs)} |`);
  console.log(`| … linked to their record | ${counts.linkedPairs} | **recall ${fmt(counts.linkedPairs, counts.goldPairs)}**, ${fmt(counts.linkedPairs, counts.foundPairs)} of those found |`);
  console.log(`| new names found (should stay unlinked) | ${counts.newEntities} | ${counts.wrongNew} linked |`);
  console.log('');
  console.log('| linked by | links | right | precision |');
  console.log('|---|---|---|---|');
  for (const [evidence, row] of [...byEvidence].sort()) console.log(`| ${evidence} | ${row.links} | ${row.right} | ${fmt(row.right, row.links)} |`);
  if (showErrors) console.error(`\n${errors.join('\n')}`);
} finally {
  await t.close();
}
