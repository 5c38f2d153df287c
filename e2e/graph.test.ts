import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { useServerAndBrowser, browserUnavailable, DESKTOP, screenshots, openSignedIn, type E2EServer } from './support/browser.ts';

const unavailable = browserUnavailable();

/** The graph's cytoscape instance (cytoscape keeps it on its container as `_cyreg.cy`). */
interface CyNode { id(): string; data(name: string): unknown; renderedPosition(): { x: number; y: number } }
interface Cy { nodes(): { map<T>(fn: (node: CyNode) => T): T[] }; $id(id: string): CyNode; animated(): boolean }
type CyHost = HTMLElement & { _cyreg: { cy: Cy } };

describe('the relationship graph on record pages', { skip: unavailable ?? false }, () => {
  let demo: Awaited<ReturnType<E2EServer['createTenant']>>;
  const ids: Record<string, string> = {};

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'admin@demo.test', { is_admin: true });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    const token = await server.login(demo, 'admin@demo.test');
    const create = (path: string, payload: Record<string, unknown>) => server.create(demo, token, path, payload);
    ids['fintech'] = await create('keywords', { name: 'Fintech', visibility: 'public' });
    ids['ada'] = await create('assets/people', { name_given: 'Ada', name_family: 'Lovelace', keywords: [ids['fintech']], visibility: 'public' });
    ids['grace'] = await create('assets/people', { name_given: 'Grace', name_family: 'Hopper', visibility: 'public' });
    ids['acme'] = await create('assets/organizations', { name_inc: 'Acme Corp', visibility: 'public' });
    ids['shadow'] = await create('assets/organizations', { name_inc: 'Shadow Holdings', visibility: 'hidden' });
    ids['revenue'] = await create('assets/ledger', { caption: 'Acme revenue 2024', year: 2024, organizations: [ids['acme'], ids['shadow']], people: [ids['ada']], visibility: 'public' });
    ids['report'] = await create('library', { title: 'Open Banking Report', type: 'Report', authors: [ids['ada']], assets: [ids['acme']], visibility: 'public' });
    ids['graceDeal'] = await create('assets/ledger', { caption: 'Hopper seed round', year: 2023, organizations: [ids['acme']], people: [ids['grace']], visibility: 'public' });
  });

  /** Runs on a fresh page; the page logs no error or warning (cytoscape warns of styles it cannot use). */
  async function withPage(run: (page: Page) => Promise<void>): Promise<void> {
    const context = await browser.newContext({ viewport: DESKTOP });
    try {
      const page = await context.newPage();
      const logged: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') logged.push(`${message.type()}: ${message.text()}`);
      });
      await run(page);
      assert.deepEqual(logged, [], 'nothing logged');
    } finally {
      await context.close();
    }
  }

  const section = (page: Page) => page.getByRole('region', { name: 'Relationship graph' });
  const canvas = (page: Page) => page.getByTestId('graph-canvas');

  /** The names of the records drawn, once the canvas holds `count` of them (or any, when not given). */
  async function drawnNames(page: Page, count?: number): Promise<string[]> {
    await page.waitForFunction(
      (wanted) => {
        const host = document.querySelector('[data-testid="graph-canvas"]') as CyHost | null;
        const drawn = host?._cyreg?.cy?.nodes().map((node) => node.id()).length ?? 0;
        return wanted === null ? drawn > 0 : drawn === wanted;
      },
      count ?? null,
    );
    return canvas(page).evaluate((host) => (host as CyHost)._cyreg.cy.nodes().map((node) => String(node.data('label'))).sort());
  }

  /** Where a record is drawn on the page (after any animation has settled). */
  async function pointOf(page: Page, id: string): Promise<{ x: number; y: number }> {
    await page.waitForFunction(() => !(document.querySelector('[data-testid="graph-canvas"]') as CyHost)._cyreg.cy.animated());
    await canvas(page).scrollIntoViewIfNeeded();
    const box = (await canvas(page).boundingBox())!;
    const at = await canvas(page).evaluate((host, nodeId) => (host as CyHost)._cyreg.cy.$id(nodeId).renderedPosition(), id);
    return { x: box.x + at.x, y: box.y + at.y };
  }

  it('a visitor sees only public records; a click expands a record, the chips filter by kind, a double-click opens one', async () => {
    await withPage(async (page) => {
      await page.goto(server.url('demo', `/people/${ids['ada']}`));
      await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
      await section(page).waitFor();
      // Ada ← Acme revenue 2024 and Open Banking Report → Acme Corp; Acme ← Hopper seed round is a third step.
      assert.deepEqual(await drawnNames(page, 4), ['Acme Corp', 'Acme revenue 2024', 'Ada Lovelace', 'Open Banking Report']);
      await section(page).getByRole('button', { name: 'List the records' }).click();
      const listed = await section(page).getByRole('list', { name: 'Records in the graph' }).getByRole('link').allInnerTexts();
      assert.deepEqual(listed.sort(), ['Acme Corp', 'Acme revenue 2024', 'Ada Lovelace', 'Open Banking Report']);
      const body = await section(page).innerText();
      assert.ok(!body.includes('Shadow Holdings'), 'the hidden organization is neither drawn nor listed');
      assert.match(await page.getByTestId('graph-summary').innerText(), /4 records · 4 relations/);
      await screenshots(page, 'graph-person-visitor');

      // Click Acme Corp (two steps away, not expanded yet): selected, and its neighbours join.
      const acme = await pointOf(page, ids['acme']!);
      await page.mouse.click(acme.x, acme.y);
      const selected = page.getByTestId('graph-selected');
      await selected.getByText('Acme Corp').waitFor();
      assert.deepEqual(await drawnNames(page, 5), ['Acme Corp', 'Acme revenue 2024', 'Ada Lovelace', 'Hopper seed round', 'Open Banking Report']);
      await selected.getByRole('link', { name: 'Open' }).waitFor();
      await screenshots(page, 'graph-person-expanded');

      // Filter: without ledger entries only the report links Ada and Acme; keywords bring Fintech.
      await section(page).getByRole('button', { name: 'Ledger entries', exact: true }).click();
      assert.deepEqual(await drawnNames(page, 3), ['Acme Corp', 'Ada Lovelace', 'Open Banking Report']);
      assert.equal(await section(page).getByRole('button', { name: 'Ledger entries', exact: true }).getAttribute('aria-pressed'), 'false');
      await section(page).getByRole('button', { name: 'Keywords', exact: true }).click();
      assert.deepEqual(await drawnNames(page, 4), ['Acme Corp', 'Ada Lovelace', 'Fintech', 'Open Banking Report']);
      await screenshots(page, 'graph-person-filtered');

      // Double-click a record to open its page.
      const report = await pointOf(page, ids['report']!);
      await page.mouse.dblclick(report.x, report.y);
      await page.getByRole('heading', { level: 1, name: 'Open Banking Report' }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/library/${ids['report']}`);
      // The library entry's page has its own graph.
      assert.deepEqual(await drawnNames(page, 5), ['Acme Corp', 'Acme revenue 2024', 'Ada Lovelace', 'Hopper seed round', 'Open Banking Report']);
    });
  });

  it('a research user sees hidden records too, and opens one from the side panel', async () => {
    await withPage(async (page) => {
      await openSignedIn(page, server.url('demo', `/organizations/${ids['acme']}`), 'research@demo.test', 'research');
      await page.getByRole('heading', { level: 1, name: 'Acme Corp' }).waitFor();
      const names = await drawnNames(page, 7);
      assert.deepEqual(names, ['Acme Corp', 'Acme revenue 2024', 'Ada Lovelace', 'Grace Hopper', 'Hopper seed round', 'Open Banking Report', 'Shadow Holdings'], 'research users see the hidden organization');
      await screenshots(page, 'graph-organization-research');
      const shadow = await pointOf(page, ids['shadow']!);
      await page.mouse.click(shadow.x, shadow.y);
      const selected = page.getByTestId('graph-selected');
      await selected.getByText('Shadow Holdings').waitFor();
      await selected.getByRole('link', { name: 'Open' }).click();
      await page.getByRole('heading', { level: 1, name: 'Shadow Holdings' }).waitFor();
      assert.equal(new URL(page.url()).pathname, `/organizations/${ids['shadow']}`);
    });
  });
});
