import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import { query } from '../db/client.ts';
import { RESOURCES } from '../modules/registry.ts';
import { createTestDatabase, type TestDatabase } from '../test/test-db.ts';
import { checkedValues, conformanceProblems, type Problems } from './conformance.ts';
import { choice, decimal, relation, text, visibility } from './fields.ts';
import { applySearchIndexes } from './search-index.ts';
import { defineResource } from './resource.ts';

describe('the catalog and the database agree', () => {
  let test: TestDatabase;
  let problems: Problems;
  before(async () => {
    test = await createTestDatabase();
    problems = await conformanceProblems(test.db.owner, RESOURCES);
  });
  after(() => test.close());

  it('every declared field has its columns, of the type its field type stores', () => {
    assert.deepEqual(problems.columns, []);
  });
  it('every choice list equals the CHECK constraint of its column', () => {
    assert.deepEqual(problems.choices, []);
  });
  it('every tenant table has row-level security enabled and forced with the tenant policy', () => {
    assert.deepEqual(problems.rowLevelSecurity, []);
  });
  it('the counter trigger exists where totals read counters, and only there', () => {
    assert.deepEqual(problems.counters, []);
  });
  it('the search_words trigger exists on the tables of quick-searched resources, and only there', () => {
    assert.deepEqual(problems.searchWords, []);
  });
  it('every relation column and filter column has an index', () => {
    assert.deepEqual(problems.indexes, []);
  });
  it('every unique and foreign key includes tenant_id', () => {
    assert.deepEqual(problems.tenantKeys, []);
  });

  it('reads the values of a CHECK list, and nothing from other checks', () => {
    assert.deepEqual(checkedValues(`CHECK ((quarter = ANY (ARRAY['Q1'::text, 'Q2'::text])))`), ['Q1', 'Q2']);
    assert.deepEqual(checkedValues(`CHECK ((gender = 'M'::text))`), ['M']);
    assert.deepEqual(checkedValues(`CHECK ((kind = ANY (ARRAY['It''s'::text])))`), ["It's"]);
    assert.equal(checkedValues(`CHECK ((inv_currency ~ '^[A-Z]{3}$'::text))`), null);
  });

  describe("the visitors' search indexes", () => {
    let bare: TestDatabase;
    before(async () => {
      bare = await createTestDatabase();
      await bare.db.owner.execute(sql`DROP INDEX organizations_search_name_public`);
      await bare.db.owner.execute(sql`DROP INDEX library_entries_search_vector_public`);
    });
    after(() => bare.close());

    it('a searched table with visibility needs one of its public rows; a quick-searched one, of their names too', async () => {
      const found = await conformanceProblems(bare.db.owner, RESOURCES);
      assert.deepEqual(found.indexes, [
        "organizations: no search index of the public rows (tenant_id, search_name) WHERE visibility = 'public'",
        "library_entries: no search index of the public rows (tenant_id, search_vector) WHERE visibility = 'public'",
      ]);
    });

    it('start-up creates what is missing', async () => {
      await applySearchIndexes(bare.db, RESOURCES);
      assert.deepEqual((await conformanceProblems(bare.db.owner, RESOURCES)).indexes, []);
    });
  });

  describe('a table set up without the block, then with setup_entity_table()', () => {
    const probe = defineResource({
      kind: 'probes',
      type: 'Probe',
      path: '/probes',
      table: 'conformance_probes',
      label: 'Probe',
      writeAccess: 'research',
      fields: {
        name: text(),
        stage: choice(['draft', 'final'] as const),
        owner: relation('organizations', { many: false }),
        tags: relation('keyword'),
        score: decimal({ scale: 2 }),
        visibility: visibility('hidden'),
      },
      ordering: [],
      filters: ['stage', 'owner'],
    });
    const run = (statement: string) => test.db.withAdvisoryLock('conformance-probe', (session) => session.execInTransaction(statement));

    before(() =>
      run(`CREATE TABLE conformance_probes (
             tenant_id uuid NOT NULL REFERENCES tenants (id),
             id uuid NOT NULL DEFAULT gen_random_uuid(),
             name text,
             stage text CHECK (stage IN ('draft')),
             owner uuid,
             tags uuid[] NOT NULL DEFAULT '{}',
             score double precision,
             visibility text NOT NULL DEFAULT 'hidden' CHECK (visibility IN ('hidden', 'paywalled', 'public')),
             parent uuid,
             city uuid REFERENCES cities (id),
             created_at timestamptz NOT NULL DEFAULT now(),
             updated_at timestamptz NOT NULL DEFAULT now(),
             created_by uuid,
             updated_by uuid,
             display_name text GENERATED ALWAYS AS (name) STORED,
             PRIMARY KEY (tenant_id, id),
             CONSTRAINT conformance_probes_id_key UNIQUE (id),
             CONSTRAINT conformance_probes_parent_fkey FOREIGN KEY (parent) REFERENCES conformance_probes (id)
           )`),
    );

    it('the check names every rule the table breaks', async () => {
      const found = await conformanceProblems(test.db.owner, [probe]);
      assert.deepEqual(found.columns, [
        'conformance_probes.staged_by: missing (uuid expected)',
        'conformance_probes.score: double precision, but its field stores numeric',
      ]);
      assert.deepEqual(found.choices, ['conformance_probes.stage: CHECK differs from the declared choices (not allowed: final; not declared: -)']);
      assert.deepEqual(found.rowLevelSecurity, [
        'conformance_probes: row-level security not enabled',
        'conformance_probes: no tenant_isolation policy FOR ALL USING and WITH CHECK (tenant_id = app_tenant_id())',
        "conformance_probes: no restrictive staged_rows policy FOR ALL USING ((staged_by IS NULL) OR (staged_by = app_import_stage())) (SELECT enable_staged_writes('conformance_probes'))",
      ]);
      assert.equal(found.counters.length, 1);
      assert.match(found.counters[0]!, /expected one counter trigger .*maintain_entity_counter\('probes'\), found none/);
      assert.deepEqual(found.indexes, [
        'conformance_probes.owner: no index starts with it (after tenant_id), yet it is a relation',
        'conformance_probes.tags: no index starts with it (after tenant_id), yet it is a relation',
        'conformance_probes.visibility: no index starts with it (after tenant_id), yet it is a filter',
        'conformance_probes.stage: no index starts with it (after tenant_id), yet it is a filter',
      ]);
      // A key to a shared table (cities) needs no tenant_id: it holds no tenant's rows.
      assert.deepEqual(found.tenantKeys, [
        'conformance_probes: unique index conformance_probes_id_key (id) without tenant_id',
        'conformance_probes: foreign key conformance_probes_parent_fkey (parent) → conformance_probes (id) does not match on tenant_id',
      ]);
    });

    it('setup_entity_table() adds the block, and adds nothing more when called again', async () => {
      const setup = `SELECT setup_entity_table('conformance_probes', 'probes', ARRAY['owner', 'tags', 'visibility', 'stage'])`;
      await run(`ALTER TABLE conformance_probes ALTER COLUMN score TYPE numeric(12, 2);
                 ALTER TABLE conformance_probes DROP CONSTRAINT conformance_probes_stage_check;
                 ALTER TABLE conformance_probes ADD CHECK (stage IN ('draft', 'final'));
                 ALTER TABLE conformance_probes DROP CONSTRAINT conformance_probes_parent_fkey;
                 ALTER TABLE conformance_probes DROP CONSTRAINT conformance_probes_id_key;
                 ALTER TABLE conformance_probes ADD FOREIGN KEY (tenant_id, parent) REFERENCES conformance_probes (tenant_id, id);
                 ${setup}`);
      await run(setup);
      const found = await conformanceProblems(test.db.owner, [probe]);
      assert.deepEqual(found, { columns: [], choices: [], rowLevelSecurity: [], counters: [], searchWords: [], indexes: [], tenantKeys: [] });
      const indexes = await query<{ indexdef: string }>(
        test.db.owner,
        sql`SELECT indexdef FROM pg_indexes WHERE tablename = 'conformance_probes' AND indexname NOT LIKE '%key' AND indexname NOT LIKE '%pkey' ORDER BY indexname`,
      );
      assert.deepEqual(
        indexes.map((row) => row.indexdef.replace(/ ON public\./, ' ON ')),
        [
          'CREATE INDEX conformance_probes_owner ON conformance_probes USING btree (tenant_id, owner)',
          'CREATE INDEX conformance_probes_recent ON conformance_probes USING btree (tenant_id, updated_at DESC, id DESC)',
          'CREATE INDEX conformance_probes_stage ON conformance_probes USING btree (tenant_id, stage)',
          'CREATE INDEX conformance_probes_staged ON conformance_probes USING btree (staged_by) WHERE (staged_by IS NOT NULL)',
          'CREATE INDEX conformance_probes_tags ON conformance_probes USING gin (tags)',
          'CREATE INDEX conformance_probes_visibility ON conformance_probes USING btree (tenant_id, visibility)',
        ],
      );
    });

    it('a quick-searched table needs the search_words trigger: setup_search_words() adds it and writes the words of its rows', async () => {
      const quickProbe = { ...probe, quickSearch: {} };
      assert.deepEqual((await conformanceProblems(test.db.owner, [quickProbe])).searchWords, [
        "conformance_probes: expected one search_words trigger AFTER INSERT OR UPDATE OR DELETE FOR EACH ROW EXECUTE FUNCTION maintain_search_words() (setup_search_words('conformance_probes')), found none",
      ]);
      const [tenant] = await query<{ id: string }>(test.db.owner, sql`INSERT INTO tenants (code, name) VALUES ('probe', 'Probe') RETURNING id`);
      await run(`ALTER TABLE conformance_probes ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (search_vector_of('A', name)) STORED;
                 INSERT INTO conformance_probes (tenant_id, name) VALUES ('${tenant!.id}', 'Early Bird');
                 SELECT setup_search_words('conformance_probes')`);
      assert.deepEqual((await conformanceProblems(test.db.owner, [quickProbe])).searchWords, []);
      assert.deepEqual((await conformanceProblems(test.db.owner, [probe])).searchWords, [
        'conformance_probes: search_words trigger, but probes is not quick-searched',
      ]);
      const words = () => query<{ word: string; in_name: boolean }>(
        test.db.owner,
        sql`SELECT word, in_name FROM search_words WHERE record_table = 'conformance_probes' ORDER BY word`,
      );
      assert.deepEqual(await words(), [{ word: 'bird', in_name: true }, { word: 'early', in_name: true }], 'the rows it held');
      await run(`INSERT INTO conformance_probes (tenant_id, name) VALUES ('${tenant!.id}', 'Late Owl');
                 UPDATE conformance_probes SET name = 'Early Owl' WHERE name = 'Early Bird';
                 DELETE FROM conformance_probes WHERE name = 'Late Owl'`);
      assert.deepEqual(await words(), [{ word: 'early', in_name: true }, { word: 'owl', in_name: true }], 'kept by the trigger');
      await run(`DROP TRIGGER conformance_probes_search_words ON conformance_probes; DELETE FROM conformance_probes`);
    });

    it('a permissive policy besides tenant_isolation is a finding (permissive policies are ORed)', async () => {
      await run(`CREATE POLICY conformance_open ON conformance_probes FOR SELECT USING (true)`);
      assert.deepEqual((await conformanceProblems(test.db.owner, [probe])).rowLevelSecurity, [
        'conformance_probes: permissive policy conformance_open besides tenant_isolation (permissive policies are ORed: it widens tenant isolation)',
      ]);
      await run(`DROP POLICY conformance_open ON conformance_probes;
                 CREATE POLICY conformance_narrow ON conformance_probes AS RESTRICTIVE FOR SELECT USING (true)`);
      assert.deepEqual((await conformanceProblems(test.db.owner, [probe])).rowLevelSecurity, [], 'a restrictive policy only narrows');
      await run(`DROP POLICY conformance_narrow ON conformance_probes`);
    });

    it('a shared table (no tenant_id) is read by everyone and written by tenant managers', async () => {
      await run(`CREATE TABLE conformance_shared_probes (id uuid PRIMARY KEY, updated_at timestamptz NOT NULL DEFAULT now());
                 SELECT setup_entity_table('conformance_shared_probes');`);
      const policies = await query<{ policyname: string; cmd: string }>(
        test.db.owner,
        sql`SELECT policyname, cmd FROM pg_policies WHERE tablename = 'conformance_shared_probes' ORDER BY policyname`,
      );
      assert.deepEqual(policies, [
        { policyname: 'shared_delete', cmd: 'DELETE' },
        { policyname: 'shared_insert', cmd: 'INSERT' },
        { policyname: 'shared_read', cmd: 'SELECT' },
        { policyname: 'shared_update', cmd: 'UPDATE' },
        { policyname: 'staged_rows', cmd: 'ALL' },
      ]);
    });
  });
});
