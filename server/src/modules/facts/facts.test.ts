/**
 * Intelbooks through the API (docs/intelbooks.md): the Markdown rule, the tree's rules (root
 * section, inheritance, a child never above its parent), moves, reordering and subtree deletes
 * with their history, the reader for each audience, and share codes across audiences and tenants.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'drizzle-orm';
import type { FactTree, FactsView } from '../../contracts.ts';
import { query } from '../../db/client.ts';
import type { TenantRow } from '../../tenancy/tenants.repository.ts';
import { createTestApp, type TestContext } from '../../test/test-app.ts';

const API = '/api/v1';
type Json = Record<string, unknown> & { id: string };
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

describe('intelbooks API', () => {
  let t: TestContext;
  let acme: TenantRow;
  let beta: TenantRow;
  let tokens: Record<string, string | undefined>;
  const ids: Record<string, string> = {};

  const call = (role: string, method: Method, url: string, payload?: unknown, tenant?: TenantRow) =>
    t.request(tenant ?? acme, { method, url: `${API}${url}`, token: tokens[role], ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
  const create = async (path: string, body: Record<string, unknown>): Promise<Json> => {
    const response = await call('admin', 'POST', `${path}/`, body);
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };
  const fact = (body: Record<string, unknown>) => create('/facts', body);
  const get = async (factId: string): Promise<Json> => {
    const response = await call('admin', 'GET', `/facts/${factId}/`);
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  const refused = (response: { statusCode: number; body: string; json: () => { errors?: Record<string, string[]> } }, field: string, status = 400) => {
    assert.equal(response.statusCode, status, response.body);
    assert.ok(response.json().errors?.[field], `expected an error naming ${field}: ${response.body}`);
  };
  const history = async (factId: string) => (await call('admin', 'GET', `/facts/${factId}/history/`)).json().results as Array<{ action: string; changes: Record<string, { from: unknown; to: unknown }> }>;
  /** The children of a parent (or roots of a section) in order, by text. */
  const order = async (parent: string | null, section?: string) => {
    const filter = parent ? `parent=${parent}` : `section=${section}`;
    const page = (await call('admin', 'GET', `/facts/?${filter}&ordering=position&limit=100`)).json();
    return (page.results as Json[]).filter((row) => parent || row['parent'] === null).map((row) => row['text']);
  };
  const view = async (role: string, queryString = '', tenant?: TenantRow): Promise<FactsView> => {
    const response = await call(role, 'GET', `/facts/view/${queryString}`, undefined, tenant);
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };
  /** Every fact text of a view, depth-first, indented by depth. */
  const outline = (trees: FactTree[], depth = 0): string[] => trees.flatMap((tree) => [`${'  '.repeat(depth)}${tree.text}`, ...outline(tree.children, depth + 1)]);
  const viewOutline = (result: FactsView) => result.sections.flatMap((section) => section.categories.flatMap((category) => outline(category.facts)));

  before(async () => {
    t = await createTestApp();
    ({ acme, beta, tokens } = await t.signInTwoTenants());
    ids['history'] = (await create('/facts/sections', { name: 'History', description: 'How it began', position: 1 })).id;
    ids['market'] = (await create('/facts/sections', { name: 'Market', position: 2 })).id;
    ids['people'] = (await create('/facts/categories', { name: 'Founders', position: 1 })).id;
    ids['keyword'] = (await create('/keywords', { name: 'Lithium', visibility: 'public' })).id;
    ids['secretKeyword'] = (await create('/keywords', { name: 'Secret', visibility: 'hidden' })).id;
    ids['org'] = (await create('/assets/organizations', { name_inc: 'Acme Mining', visibility: 'public' })).id;
  });
  after(() => t.close());

  describe('sections and categories', () => {
    it('are listed in position order for every audience, and written by admins only', async () => {
      const listed = await call('public', 'GET', '/facts/sections/');
      assert.equal(listed.statusCode, 200, listed.body);
      assert.deepEqual(listed.json().results.map((row: Json) => row['name']), ['History', 'Market']);
      assert.equal((await call('research', 'POST', '/facts/sections/', { name: 'Nope' })).statusCode, 403);
      refused(await call('admin', 'POST', '/facts/categories/', { description: 'no name' }), 'name');
    });

    it('a section still holding facts is not deleted (409); an empty one is', async () => {
      const spare = await create('/facts/sections', { name: 'Spare' });
      const held = await fact({ text: 'Held', section: spare.id });
      assert.equal((await call('admin', 'DELETE', `/facts/sections/${spare.id}/`)).statusCode, 409);
      assert.equal((await call('admin', 'DELETE', `/facts/${held.id}/`)).statusCode, 204);
      assert.equal((await call('admin', 'DELETE', `/facts/sections/${spare.id}/`)).statusCode, 204);
    });
  });

  describe('the Markdown rule', () => {
    for (const [label, text] of [
      ['raw HTML', 'It was <b>big</b>'],
      ['a script tag', '<script>alert(1)</script>'],
      ['an HTML comment', 'a <!-- hidden --> b'],
      ['a javascript: link', '[click](javascript:alert(1))'],
      ['an entity-encoded scheme', '[click](&#106;avascript:alert(1))'],
      ['a relative link', '[home](/admin)'],
      ['a data: reference definition', '[x][r]\n\n[r]: data:text/html;base64,AAAA'],
      ['an image', '![pixel](https://tracker.example/p.gif)'],
      ['an empty link', '[nothing]()'],
    ]) {
      it(`refuses ${label} with a 400 naming text`, async () => {
        refused(await call('admin', 'POST', '/facts/', { text, section: ids['history'] }), 'text');
      });
    }

    it('keeps bold, italic, http(s) and mailto links and a lone "<" as written', async () => {
      const text = '**Founded** in *1998* by [Ada](https://example.com/ada) — [write](mailto:ada@example.com); 2 < 3';
      const created = await fact({ text, section: ids['history'] });
      assert.equal(created['text'], text);
      await call('admin', 'DELETE', `/facts/${created.id}/`);
    });

    it('names a fact by its text as read, without the markers (history, pickers, search results)', async () => {
      const cases: Array<[string, string]> = [
        ['**Founded** in *1998* by [Ada](https://example.com/ada_(b))', 'Founded in 1998 by Ada'],
        ['snake_case stays, _italic_ goes; \\*escaped\\* stars stay', 'snake_case stays, italic goes; *escaped* stars stay'],
      ];
      for (const [text, name] of cases) {
        const created = await fact({ text, section: ids['history'] });
        assert.equal(created['display_name'], name);
        await call('admin', 'DELETE', `/facts/${created.id}/`);
      }
    });

    it('refuses more than 5,000 characters', async () => {
      refused(await call('admin', 'POST', '/facts/', { text: 'x'.repeat(5001), section: ids['history'] }), 'text');
    });
  });

  describe('the tree', () => {
    it('a top-level fact needs a section; a child takes its root’s section and category', async () => {
      refused(await call('admin', 'POST', '/facts/', { text: 'Orphan' }), 'section');
      const root = await fact({ text: 'Root', section: ids['history'], category: ids['people'], visibility: 'public' });
      const child = await fact({ text: 'Child', parent: root.id, section: ids['market'], visibility: 'public' });
      assert.equal((child['section'] as Json).id, ids['history']);
      assert.equal((child['category'] as Json).id, ids['people']);
      // Moving the root to another section takes its subtree along, with history.
      const moved = await call('admin', 'PATCH', `/facts/${root.id}/`, { section: ids['market'], category: null });
      assert.equal(moved.statusCode, 200, moved.body);
      const after = await get(child.id);
      assert.equal((after['section'] as Json).id, ids['market']);
      assert.equal(after['category'], null);
      const [latest] = await history(child.id);
      assert.deepEqual(Object.keys(latest!.changes).sort(), ['category', 'section']);
      await call('admin', 'DELETE', `/facts/${root.id}/`);
    });

    it('a child is never more visible than its parent: saving it above is a 400 naming visibility', async () => {
      const root = await fact({ text: 'Paid root', section: ids['history'], visibility: 'paywalled' });
      refused(await call('admin', 'POST', '/facts/', { text: 'Loud child', parent: root.id, visibility: 'public' }), 'visibility');
      const child = await fact({ text: 'Quiet child', parent: root.id, visibility: 'paywalled' });
      refused(await call('admin', 'PATCH', `/facts/${child.id}/`, { visibility: 'public' }), 'visibility');
      // Raising the parent first makes room.
      assert.equal((await call('admin', 'PATCH', `/facts/${root.id}/`, { visibility: 'public' })).statusCode, 200);
      assert.equal((await call('admin', 'PATCH', `/facts/${child.id}/`, { visibility: 'public' })).statusCode, 200);
      await call('admin', 'DELETE', `/facts/${root.id}/`);
    });

    it('lowering a parent lowers its descendants in the same transaction, each with a history entry', async () => {
      const root = await fact({ text: 'Open root', section: ids['history'], visibility: 'public' });
      const child = await fact({ text: 'Open child', parent: root.id, visibility: 'public' });
      const paid = await fact({ text: 'Paid grandchild', parent: child.id, visibility: 'paywalled' });
      const hidden = await fact({ text: 'Hidden grandchild', parent: child.id, visibility: 'hidden' });
      assert.equal((await call('admin', 'PATCH', `/facts/${root.id}/`, { visibility: 'paywalled' })).statusCode, 200);
      assert.equal((await get(child.id))['visibility'], 'paywalled');
      assert.equal((await get(paid.id))['visibility'], 'paywalled');
      assert.equal((await get(hidden.id))['visibility'], 'hidden');
      assert.deepEqual((await history(child.id))[0]!.changes, { visibility: { from: 'public', to: 'paywalled' } });
      assert.equal((await history(paid.id)).length, 1, 'an unchanged descendant gets no entry');
      assert.equal((await call('admin', 'PATCH', `/facts/${root.id}/`, { visibility: 'hidden' })).statusCode, 200);
      for (const id of [child.id, paid.id, hidden.id]) assert.equal((await get(id))['visibility'], 'hidden');
      await call('admin', 'DELETE', `/facts/${root.id}/`);
    });

    it('a bulk visibility change keeps the rule too', async () => {
      const root = await fact({ text: 'Bulk root', section: ids['history'], visibility: 'public' });
      const child = await fact({ text: 'Bulk child', parent: root.id, visibility: 'public' });
      const bulk = await call('admin', 'POST', '/facts/bulk/', { action: 'set_visibility', ids: [root.id], visibility: 'hidden' });
      assert.equal(bulk.statusCode, 200, bulk.body);
      assert.equal((await get(child.id))['visibility'], 'hidden');
      await call('admin', 'DELETE', `/facts/${root.id}/`);
    });
  });

  describe('moves and order', () => {
    const tree: Record<string, string> = {};
    before(async () => {
      tree['a'] = (await fact({ text: 'A', section: ids['market'], visibility: 'public' })).id;
      tree['b'] = (await fact({ text: 'B', section: ids['market'], visibility: 'public' })).id;
      tree['c'] = (await fact({ text: 'C', section: ids['market'], visibility: 'public' })).id;
      tree['a1'] = (await fact({ text: 'A1', parent: tree['a'], visibility: 'public' })).id;
      tree['a2'] = (await fact({ text: 'A2', parent: tree['a'], visibility: 'public' })).id;
      tree['a1x'] = (await fact({ text: 'A1x', parent: tree['a1'], visibility: 'public' })).id;
    });

    it('new facts go last among their siblings', async () => {
      assert.deepEqual(await order(null, ids['market']), ['A', 'B', 'C']);
      assert.deepEqual(await order(tree['a']!), ['A1', 'A2']);
    });

    it('moving a fact into itself or one of its descendants is a 400 naming parent, and changes nothing', async () => {
      refused(await call('admin', 'POST', `/facts/${tree['a']}/move/`, { parent: tree['a'], position: 0 }), 'parent');
      refused(await call('admin', 'POST', `/facts/${tree['a']}/move/`, { parent: tree['a1x'], position: 0 }), 'parent');
      refused(await call('admin', 'PATCH', `/facts/${tree['a']}/`, { parent: tree['a1'] }), 'parent');
      assert.equal((await get(tree['a']!))['parent'], null);
      assert.deepEqual(await order(null, ids['market']), ['A', 'B', 'C']);
    });

    it('a move places the subtree at its position, renumbers both sibling groups and records the history', async () => {
      const moved = await call('admin', 'POST', `/facts/${tree['c']}/move/`, { parent: tree['a'], position: 1 });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal((moved.json().parent as Json).id, tree['a']);
      assert.deepEqual(await order(tree['a']!), ['A1', 'C', 'A2']);
      assert.deepEqual(await order(null, ids['market']), ['A', 'B']);
      const [entry] = await history(tree['c']!);
      assert.equal((entry!.changes['parent']!.to as Json).id, tree['a']);
      assert.deepEqual((await history(tree['a2']!))[0]!.changes, { position: { from: 1, to: 2 } });
      // Back to the top, first.
      const back = await call('admin', 'POST', `/facts/${tree['c']}/move/`, { parent: null, position: 0 });
      assert.equal(back.statusCode, 200, back.body);
      assert.deepEqual(await order(null, ids['market']), ['C', 'A', 'B']);
      assert.deepEqual(await order(tree['a']!), ['A1', 'A2']);
    });

    it('a move with its subtree under a less visible parent lowers the subtree', async () => {
      const paid = await fact({ text: 'Paid shelf', section: ids['market'], visibility: 'paywalled' });
      const moved = await call('admin', 'POST', `/facts/${tree['a1']}/move/`, { parent: paid.id, position: 0 });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(moved.json().visibility, 'paywalled');
      assert.equal((await get(tree['a1x']!))['visibility'], 'paywalled');
      assert.equal(((await get(tree['a1x']!))['section'] as Json).id, ids['market']);
      await call('admin', 'POST', `/facts/${tree['a1']}/move/`, { parent: tree['a'], position: 0 });
      await call('admin', 'DELETE', `/facts/${paid.id}/`);
    });

    it('a top-level fact moved to another section takes its subtree along', async () => {
      const leaf = await fact({ text: 'B1', parent: tree['b'], visibility: 'public' });
      const moved = await call('admin', 'POST', `/facts/${tree['b']}/move/`, { parent: null, section: ids['history'], position: 0 });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.equal(((await get(leaf.id))['section'] as Json).id, ids['history']);
      assert.equal((await order(null, ids['history']))[0], 'B');
      assert.deepEqual(await order(null, ids['market']), ['C', 'A']);
      const back = await call('admin', 'POST', `/facts/${tree['b']}/move/`, { parent: null, section: ids['market'], position: 1 });
      assert.equal(back.statusCode, 200, back.body);
      assert.deepEqual(await order(null, ids['market']), ['C', 'B', 'A']);
      await call('admin', 'POST', `/facts/${tree['b']}/move/`, { parent: null, position: 2 });
      assert.equal(((await get(leaf.id))['section'] as Json).id, ids['market']);
      await call('admin', 'DELETE', `/facts/${leaf.id}/`);
    });

    it('a bad move body is a 400 naming the field; another tenant’s fact is a 404', async () => {
      refused(await call('admin', 'POST', `/facts/${tree['c']}/move/`, { parent: 'nope', position: 0 }), 'parent');
      refused(await call('admin', 'POST', `/facts/${tree['c']}/move/`, { parent: null, position: -1 }), 'position');
      refused(await call('admin', 'POST', `/facts/${tree['c']}/move/`, { parent: '00000000-0000-4000-8000-000000000000', position: 0 }), 'parent');
      assert.equal((await call('research', 'POST', `/facts/${tree['c']}/move/`, { parent: null, position: 0 })).statusCode, 403);
      assert.equal((await call('beta', 'POST', `/facts/${tree['c']}/move/`, { parent: null, position: 0 }, beta)).statusCode, 404);
    });

    it('reorder takes exactly the siblings, in the order given, with history', async () => {
      const reordered = await call('admin', 'POST', '/facts/reorder/', { parent: tree['a'], ids: [tree['a2'], tree['a1']] });
      assert.equal(reordered.statusCode, 200, reordered.body);
      assert.deepEqual(await order(tree['a']!), ['A2', 'A1']);
      assert.deepEqual((await history(tree['a2']!))[0]!.changes, { position: { from: 1, to: 0 } });
      refused(await call('admin', 'POST', '/facts/reorder/', { parent: tree['a'], ids: [tree['a2']] }), 'ids');
      refused(await call('admin', 'POST', '/facts/reorder/', { parent: tree['a'], ids: [tree['a2'], tree['a1'], tree['b']] }), 'ids');
      refused(await call('admin', 'POST', '/facts/reorder/', { parent: tree['a'], ids: [tree['a2'], tree['a2'], tree['a1']] }), 'ids');
      refused(await call('admin', 'POST', '/facts/reorder/', { parent: null, ids: [tree['a']] }), 'section');
      assert.deepEqual(await order(tree['a']!), ['A2', 'A1']);
      const roots = await call('admin', 'POST', '/facts/reorder/', { parent: null, section: ids['market'], ids: [tree['a'], tree['b'], tree['c']] });
      assert.equal(roots.statusCode, 200, roots.body);
      assert.deepEqual(await order(null, ids['market']), ['A', 'B', 'C']);
    });

    it('subtree-count counts what the caller sees; a delete removes the subtree in one go, with history', async () => {
      const hiddenLeaf = await fact({ text: 'Hidden leaf', parent: tree['a2'], visibility: 'hidden' });
      assert.deepEqual((await call('admin', 'GET', `/facts/${tree['a']}/subtree-count/`)).json(), { count: 5 });
      // A1 (and A1x below it) stayed paywalled from the move above: the public walk stops there.
      assert.deepEqual((await call('public', 'GET', `/facts/${tree['a']}/subtree-count/`)).json(), { count: 2 });
      assert.equal((await call('public', 'GET', `/facts/${hiddenLeaf.id}/subtree-count/`)).statusCode, 404);
      const share = (await call('admin', 'POST', `/facts/${tree['a1']}/share/`, {})).json();
      assert.equal((await call('admin', 'DELETE', `/facts/${tree['a']}/`)).statusCode, 204);
      for (const id of [tree['a'], tree['a1'], tree['a1x'], tree['a2'], hiddenLeaf.id]) {
        assert.equal((await call('admin', 'GET', `/facts/${id}/`)).statusCode, 404);
        assert.equal((await history(id!))[0]!.action, 'delete');
      }
      assert.equal((await call('public', 'GET', `/facts/shared/${share.code}/`)).statusCode, 404, 'its share codes went with it');
    });
  });

  describe('the reader', () => {
    const book: Record<string, string> = {};
    before(async () => {
      const reader = (await create('/facts/sections', { name: 'Reader', position: 0 })).id;
      book['section'] = reader;
      book['r1'] = (await fact({ text: 'Lithium is mined', section: reader, category: ids['people'], visibility: 'public' })).id;
      book['r1a'] = (await fact({ text: 'Mostly in Chile', parent: book['r1'], visibility: 'public', keywords: [ids['keyword']], valid_from: '2019-03' })).id;
      book['r1b'] = (await fact({ text: 'Prices doubled', parent: book['r1'], visibility: 'paywalled' })).id;
      book['r1b1'] = (await fact({ text: 'Analyst note', parent: book['r1b'], visibility: 'paywalled', organizations: [ids['org']] })).id;
      book['r1c'] = (await fact({ text: 'Internal memo', parent: book['r1'], visibility: 'hidden', keywords: [ids['secretKeyword']] })).id;
      book['r2'] = (await fact({ text: 'Secret root', section: reader, visibility: 'hidden' })).id;
      book['r2a'] = (await fact({ text: 'Under the secret', parent: book['r2'], visibility: 'hidden' })).id;
      book['r3'] = (await fact({ text: 'Paid root', section: reader, visibility: 'paywalled' })).id;
    });
    const section = () => `?section=${book['section']}`;

    it('a public visitor sees public facts, and the paywalled ones as a locked count', async () => {
      const result = await view('public', section());
      assert.deepEqual(viewOutline(result), ['Lithium is mined', '  Mostly in Chile']);
      assert.equal(result.locked_count, 3);
      const [only] = result.sections;
      assert.equal(only!.name, 'Reader');
      assert.equal(only!.categories[0]!.name, 'Founders');
      const root = only!.categories[0]!.facts[0]!;
      assert.equal(root.locked_children, 1);
      const child = root.children[0]!;
      assert.deepEqual(child.keywords.map((ref) => ref.display_name), ['Lithium']);
      assert.equal(child.valid_from, '2019-03');
      assert.equal(child.sources_raw_data, undefined, 'raw data sources are for research users and admins');
    });

    it('a paywall reader sees paywalled facts; research and admins see hidden ones; a hidden parent hides its subtree', async () => {
      const paid = await view('paywall', section());
      assert.deepEqual(viewOutline(paid), ['Lithium is mined', '  Mostly in Chile', '  Prices doubled', '    Analyst note', 'Paid root']);
      assert.equal(paid.locked_count, 0);
      const all = viewOutline(await view('research', section()));
      assert.ok(all.includes('  Internal memo') && all.includes('  Under the secret'));
    });

    it('filters keep a matching fact with its ancestors, and drop the rest', async () => {
      assert.deepEqual(viewOutline(await view('public', `${section()}&keyword=${ids['keyword']}`)), ['Lithium is mined', '  Mostly in Chile']);
      assert.deepEqual(viewOutline(await view('paywall', `${section()}&organization=${ids['org']}`)), ['Lithium is mined', '  Prices doubled', '    Analyst note']);
      // What paywalled facts say or link to is not told by a filter or a search: they match nothing for a visitor.
      for (const filter of [`organization=${ids['org']}`, 'search=doubl']) {
        const locked = await view('public', `${section()}&${filter}`);
        assert.deepEqual([viewOutline(locked), locked.locked_count], [[], 0], filter);
      }
      assert.deepEqual(viewOutline(await view('paywall', `${section()}&search=doubl`)), ['Lithium is mined', '  Prices doubled']);
      // A keyword the reader may not see matches nothing, as an unknown one.
      assert.deepEqual(viewOutline(await view('public', `${section()}&keyword=${ids['secretKeyword']}`)), []);
      assert.deepEqual(viewOutline(await view('admin', `${section()}&keyword=${ids['secretKeyword']}`)), ['Lithium is mined', '  Internal memo']);
      assert.deepEqual(viewOutline(await view('paywall', `?root=${book['r1b']}`)), ['Prices doubled', '  Analyst note']);
    });

    it('bad filter values are a 400 naming the parameter; another tenant sees nothing of it', async () => {
      const bad = await call('public', 'GET', '/facts/view/?keyword=lithium');
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.body, /keyword/);
      assert.deepEqual((await view('beta', '', beta)).sections, []);
    });

    it('entity counts include facts, by visibility', async () => {
      const counts = (await call('admin', 'GET', '/tools/entities-count/')).json();
      assert.ok(counts.facts.public_count >= 2);
      assert.ok(counts.facts.paywall_count >= 3);
      assert.ok(counts.facts.hidden_count >= 3);
    });

    describe('share codes', () => {
      let code: string;
      let codeId: string;

      it('admins create codes (80 random bits, base32); others may not', async () => {
        assert.equal((await call('research', 'POST', `/facts/${book['r1']}/share/`, {})).statusCode, 403);
        const created = await call('admin', 'POST', `/facts/${book['r1']}/share/`, {});
        assert.equal(created.statusCode, 201, created.body);
        const body = created.json();
        assert.match(body.code, /^[a-z2-7]{16}$/);
        assert.equal(body.url_path, `/s/${body.code}`);
        assert.equal(body.expires_at, null);
        code = body.code;
        codeId = body.id;
        const again = (await call('admin', 'POST', `/facts/${book['r1']}/share/`, {})).json();
        assert.notEqual(again.code, code, 'a fact may have several codes');
        refused(await call('admin', 'POST', `/facts/${book['r1']}/share/`, { expires_at: '2001-01-01T00:00:00Z' }), 'expires_at');
        refused(await call('admin', 'POST', `/facts/${book['r1']}/share/`, { expires_at: 'tomorrow' }), 'expires_at');
      });

      it('shows the subtree with the viewer’s own audience: a code never raises it', async () => {
        const anonymous = await call('public', 'GET', `/facts/shared/${code}/`);
        assert.equal(anonymous.statusCode, 200, anonymous.body);
        assert.deepEqual(outline([anonymous.json().root]), ['Lithium is mined', '  Mostly in Chile']);
        assert.equal(anonymous.json().locked_count, 2);
        const reader = (await call('paywall', 'GET', `/facts/shared/${code}/`)).json();
        assert.deepEqual(outline([reader.root]), ['Lithium is mined', '  Mostly in Chile', '  Prices doubled', '    Analyst note']);
        assert.equal(reader.locked_count, 0);
      });

      it('behind the paywall the root is null with its locked count; a hidden fact’s code is a 404', async () => {
        const paidCode = (await call('admin', 'POST', `/facts/${book['r3']}/share/`, {})).json().code;
        assert.deepEqual((await call('public', 'GET', `/facts/shared/${paidCode}/`)).json(), { root: null, locked_count: 1, expires_at: null });
        const secretCode = (await call('admin', 'POST', `/facts/${book['r2']}/share/`, {})).json().code;
        assert.equal((await call('paywall', 'GET', `/facts/shared/${secretCode}/`)).statusCode, 404);
        assert.equal((await call('admin', 'GET', `/facts/shared/${secretCode}/`)).statusCode, 200);
      });

      it("a code on another tenant's host is a 404, as is an unknown one", async () => {
        assert.equal((await call('public', 'GET', `/facts/shared/${code}/`, undefined, beta)).statusCode, 404);
        assert.equal((await call('beta', 'GET', `/facts/shared/${code}/`, undefined, beta)).statusCode, 404);
        assert.equal((await call('public', 'GET', '/facts/shared/aaaaaaaaaaaaaaaa/')).statusCode, 404);
        assert.equal((await call('public', 'GET', '/facts/shared/not-a-code/')).statusCode, 404);
      });

      it('lists codes with their view counts for admins', async () => {
        assert.equal((await call('research', 'GET', '/facts/share-codes/')).statusCode, 403);
        const listed = await call('admin', 'GET', `/facts/share-codes/?fact=${book['r1']}`);
        assert.equal(listed.statusCode, 200, listed.body);
        const mine = (listed.json().results as Json[]).find((row) => row.id === codeId)!;
        assert.equal(mine['view_count'], 2);
        assert.deepEqual(mine['fact'], { id: book['r1'], text: 'Lithium is mined' });
        assert.equal(mine['revoked'], false);
        assert.equal(listed.json().count, 2);
      });

      it('an expired or revoked code is a 404 and stops counting views', async () => {
        const expiring = (await call('admin', 'POST', `/facts/${book['r1']}/share/`, { expires_at: new Date(Date.now() + 3_600_000).toISOString() })).json();
        assert.equal((await call('public', 'GET', `/facts/shared/${expiring.code}/`)).statusCode, 200);
        await query(t.db.owner, sql`UPDATE fact_share_codes SET expires_at = now() - interval '1 second' WHERE id = ${expiring.id}`);
        assert.equal((await call('public', 'GET', `/facts/shared/${expiring.code}/`)).statusCode, 404);
        assert.equal((await call('admin', 'DELETE', `/facts/share-codes/${codeId}/`)).statusCode, 204);
        assert.equal((await call('public', 'GET', `/facts/shared/${code}/`)).statusCode, 404);
        const listed = (await call('admin', 'GET', `/facts/share-codes/?fact=${book['r1']}`)).json().results as Json[];
        assert.deepEqual(listed.map((row) => [row['view_count'], row['revoked'], row['expired']]).sort(), [[0, false, false], [1, false, true], [2, true, false]]);
        assert.equal((await call('beta', 'DELETE', `/facts/share-codes/${codeId}/`, undefined, beta)).statusCode, 404);
      });

      it('a link made or revoked is in the fact’s history, once', async () => {
        assert.equal((await call('admin', 'DELETE', `/facts/share-codes/${codeId}/`)).statusCode, 204, 'revoking again changes nothing');
        const links = (await history(book['r1']!)).filter((entry) => 'share_link' in entry.changes).map((entry) => entry.changes['share_link']);
        const made = links.filter((change) => change?.from === null).map((change) => change?.to);
        assert.ok(made.includes(`/s/${code}`), JSON.stringify(links));
        assert.ok(made.some((path) => typeof path === 'string' && /^\/s\/[a-z2-7]{16} \(expires \d{4}-/.test(path)), 'with its expiry');
        assert.deepEqual(links.filter((change) => change?.to === null), [{ from: `/s/${code}`, to: null }]);
      });
    });
  });
});
