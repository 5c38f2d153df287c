/**
 * The phrasing table (phrasings.json): each question through the built-in parser, with a
 * fake resolver and a fixed today, must become exactly the expected list parameters and
 * leave exactly the expected words not understood. The accuracy per category is reported
 * (docs/operator.md quotes it): `npm test -- server/src/modules/operator/phrasings.test.ts`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import type { AccessLevel } from '../../contracts.ts';
import { createCatalog } from '../registry.ts';
import { PHRASING_RESOLVER } from './fake-resolver.ts';
import { parseQuestion } from './parser.ts';
import { writeVerb } from './refusal.ts';
import { DEFAULT_OPERATOR_LIMIT, listRequest } from './structured-query.ts';

// Relations know their targets once a catalog holds the declarations (the readers' lookups ask them).
createCatalog();

interface Phrasing {
  category: string;
  question: string;
  access?: AccessLevel;
  entity: string;
  params: Record<string, string>;
  limit?: number;
  not_understood?: string[];
}

const table = JSON.parse(readFileSync(new URL('./phrasings.json', import.meta.url), 'utf8')) as { today: string; phrasings: Phrasing[] };

/** What a phrasing became, in the table's terms, or why it failed. */
async function outcome(phrasing: Phrasing): Promise<{ ok: boolean; got: unknown }> {
  const result = await parseQuestion(phrasing.question, { resolver: PHRASING_RESOLVER, today: new Date(`${table.today}T12:00:00Z`), access: phrasing.access ?? 'admin' });
  if (!result.query) return { ok: false, got: 'no entity type' };
  const { limit, ...params } = listRequest(result.query).params;
  const got = { entity: result.query.entity, params, limit: Number(limit), not_understood: result.notUnderstood };
  const expected = { entity: phrasing.entity, params: phrasing.params, limit: phrasing.limit ?? DEFAULT_OPERATOR_LIMIT, not_understood: phrasing.not_understood ?? [] };
  try {
    assert.deepStrictEqual(got, expected);
    return { ok: true, got };
  } catch {
    return { ok: false, got };
  }
}

describe('Operator phrasing table', () => {
  it(`understands the ${table.phrasings.length} phrasings of the table`, async (t) => {
    assert.ok(table.phrasings.length >= 80, 'at least 80 phrasings');
    const byCategory = new Map<string, { total: number; correct: number }>();
    const failures: string[] = [];
    for (const phrasing of table.phrasings) {
      const { ok, got } = await outcome(phrasing);
      const tally = byCategory.get(phrasing.category) ?? { total: 0, correct: 0 };
      tally.total++;
      if (ok) tally.correct++;
      else failures.push(`“${phrasing.question}” → ${JSON.stringify(got)}`);
      byCategory.set(phrasing.category, tally);
    }
    const correct = table.phrasings.length - failures.length;
    const rows = [...byCategory].map(([category, tally]) => `| ${category} | ${tally.total} | ${tally.correct} | ${Math.round((100 * tally.correct) / tally.total)}% |`);
    for (const row of ['| category | phrasings | fully correct | accuracy |', '|---|---|---|---|', ...rows, `| all | ${table.phrasings.length} | ${correct} | ${((100 * correct) / table.phrasings.length).toFixed(1)}% |`]) {
      t.diagnostic(row);
    }
    assert.deepEqual(failures, [], `${failures.length} phrasings were not understood as expected`);
  });

  it('reads odd questions without failing', async () => {
    const odd = [
      'organizations "', 'people “unclosed', 'reports ""', 'ledger entries over $', 'ledger entries between 1M and', 'people born after',
      'organizations in', 'organizations not', 'library entries by', 'people tagged', 'organizations ' + '"'.repeat(480),
      'ledger entries ' + '9'.repeat(480), 'people \ud800 in Berlin', 'organizations in Ber\u0301lin', 'top 0 organizations',
      'first 99999999 people', 'ledger entries in Q5 2024', 'people born in 2024-13-45', 'library entries from 0000',
      'organizations founded between 2020 and 2010', 'organizations ' + 'in Berlin or '.repeat(37),
    ];
    for (const question of odd) {
      const result = await parseQuestion(question, { resolver: PHRASING_RESOLVER, today: new Date(`${table.today}T12:00:00Z`), access: 'public' });
      assert.ok(result.query, question);
      assert.ok(result.query.limit >= 1 && result.query.limit <= 100, question);
    }
  });
});

describe('write requests anywhere in the question (issue 27)', () => {
  it('refuses a change asked in a later clause or written as a new record, and reads questions', () => {
    assert.equal(writeVerb('globex founding date is wrong, set it to 2011'), 'set');
    assert.equal(writeVerb('these are duplicates; please merge them'), 'merge');
    assert.equal(writeVerb('new organization: Globex, Berlin'), 'create');
    assert.equal(writeVerb('New contact - Jane Doe'), 'create');
    assert.equal(writeVerb('organizations in Berlin, newest first'), null);
    assert.equal(writeVerb('new organizations in Berlin'), null);
    assert.equal(writeVerb('deals and the people on them'), null);
  });
});
