/**
 * The email list's paste and parse (docs/emails.md): finding the addresses of a megabyte of
 * text (addresses with names, random characters, a run of @ signs), then a paste of
 * BENCH_EMAILS (10,000) addresses through the API on an embedded PGlite database (the test
 * app), BENCH_EMAIL_RUNS (3) times each, printing seconds and the process's RSS.
 *
 *   node --import tsx bench/email-parse.ts
 */
import { sql } from 'drizzle-orm';
import { query } from '../server/src/db/client.ts';
import { extractAddresses } from '../server/src/modules/emails/email-extract.ts';
import { createTestApp } from '../server/src/test/test-app.ts';

const int = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number`);
  return value;
};
const EMAILS = int('BENCH_EMAILS', 10_000);
const RUNS = int('BENCH_EMAIL_RUNS', 3);
const MEGABYTE = 1_000_000;

const rssMiB = () => Math.round(process.memoryUsage().rss / 1024 / 1024);
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

function texts(): Record<string, string> {
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const alphabet = 'abcdefghij@.-_"()[]<>:; \n\t+é例😀＠at dot';
  const named: string[] = [];
  for (let index = 0, length = 0; length < MEGABYTE; index += 1) {
    const line = `Person ${index} <person.${index}@domain${index % 500}.example>, `;
    named.push(line);
    length += line.length;
  }
  return {
    'addresses with names (1 MB)': named.join('').slice(0, MEGABYTE),
    'random characters (1 MB)': Array.from({ length: MEGABYTE }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''),
    '@ signs (1 MB)': '@'.repeat(MEGABYTE),
    'obfuscated (1 MB)': Array.from({ length: MEGABYTE / 40 }, (_, index) => `user${index} [at] site${index % 50} [dot] com; `).join(''),
  };
}

async function main(): Promise<void> {
  console.log(`| Text | Addresses found | Invalid | Seconds (best of ${RUNS}) |`);
  console.log('|---|---|---|---|');
  for (const [name, text] of Object.entries(texts())) {
    let best = Infinity;
    let result = extractAddresses(text);
    for (let run = 0; run < RUNS; run += 1) {
      const start = process.hrtime.bigint();
      result = extractAddresses(text);
      best = Math.min(best, seconds(start));
    }
    console.log(`| ${name} | ${result.found.length} | ${result.invalid.length} | ${best.toFixed(3)} |`);
  }

  const t = await createTestApp();
  try {
    const { acme, tokens } = await t.signInTwoTenants();
    console.log(`\n| Paste of ${EMAILS} new addresses (PGlite, one transaction) | Seconds | RSS after (MiB) |`);
    console.log('|---|---|---|');
    for (let run = 0; run < RUNS; run += 1) {
      await t.db.owner.execute(sql`DELETE FROM email_list WHERE tenant_id = ${acme.id}`);
      const text = Array.from({ length: EMAILS }, (_, index) => `P${index} <p${index}.r${run}@bulk${index % 200}.example>`).join('\n');
      const start = process.hrtime.bigint();
      const response = await t.request(acme, { method: 'POST', url: '/api/v1/dxlist/bulk_create/parse_text/', token: tokens['research'], payload: { raw_text: text } });
      const elapsed = seconds(start);
      if (response.statusCode !== 200 || response.json().counts.created !== EMAILS) throw new Error(`paste failed: ${response.statusCode} ${response.body.slice(0, 300)}`);
      console.log(`| run ${run + 1} | ${elapsed.toFixed(2)} | ${rssMiB()} |`);
    }
    const [drift] = await query<{ n: number }>(
      t.db.owner,
      sql`SELECT count(*)::int AS n FROM email_domains d WHERE cleaned_emails_count <> (SELECT count(*) FROM email_list l WHERE l.domain = d.id)`,
    );
    console.log(`\nDomains whose count differs from their addresses: ${drift?.n ?? 0}`);
  } finally {
    await t.close();
  }
}

await main();
