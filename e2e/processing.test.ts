// Processing in the browser (docs/processing.md "Screens"): a real PDF (made with LibreOffice)
// is collected, a research user watches the suggestions tab while it is processed, the
// suggested organization arrives live and is accepted; the item's page shows what was found,
// linked to the record it became.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { multipartForm } from '../server/src/test/multipart.ts';
import type { TenantRow } from '../server/src/tenancy/tenants.repository.ts';
import { browserUnavailable, DESKTOP, screenshots, openSignedIn, useServerAndBrowser } from './support/browser.ts';

const unavailable = browserUnavailable();
// "Acme Holdings GmbH raised 5 million euros … Jane Doe, chief executive of Acme Holdings, said …"
const REPORT_PDF = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/src/processing/text/fixtures/report.pdf');

describe('processing: a PDF processed, its suggestion accepted as it arrives', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  let token: string;
  let itemId: string;

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
    token = await server.login(demo, 'research@demo.test');
    const created = await server.request(demo, {
      method: 'POST',
      url: '/api/v1/raw-data/',
      token,
      ...multipartForm([{ field: 'title', content: 'Quarterly report' }, { field: 'file', filename: 'report.pdf', content: readFileSync(REPORT_PDF), contentType: 'application/pdf' }]),
    });
    assert.equal(created.statusCode, 201, created.body);
    itemId = (created.json() as { id: string }).id;
    await server.startWorker();
  });

  it('shows the suggestion arriving, accepts it, and the item links what was found to the record; the analysis report', async (t) => {
    const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
    t.after(() => context.close());
    const page = await context.newPage();
    await openSignedIn(page, server.url('demo', '/organizations?tab=2'), 'research@demo.test', 'research');
    await page.getByText(/No suggest/i).or(page.getByRole('grid')).first().waitFor();
    const queued = await server.request(demo, { method: 'POST', url: '/api/v1/raw-data/process/', token, payload: { ids: [itemId] } });
    assert.equal(queued.statusCode, 202, queued.body);

    // The suggestion arrives in the open list (live events), and is reviewed from there.
    const acme = page.getByRole('link', { name: 'Acme Holdings GmbH', exact: true });
    await acme.waitFor({ timeout: 120_000 });
    await screenshots(page, 'processing-suggestion-arrived');
    await acme.click();
    await page.getByRole('heading', { name: 'Acme Holdings GmbH', level: 1 }).waitFor();
    await page.getByTestId('provenance').locator('mark').first().waitFor();
    assert.match(await page.getByTestId('provenance').first().innerText(), /raised 5 million euros/);
    await page.getByRole('button', { name: 'Accept as new organization' }).click();
    // Accepted once the page moves on (to the next suggestion or back to the list), not at the click.
    await page.getByRole('heading', { name: 'Acme Holdings GmbH', level: 1 }).waitFor({ state: 'detached', timeout: 30_000 });

    const organizations = await server.request(demo, { method: 'GET', url: '/api/v1/assets/organizations/?search=Acme', token });
    const accepted = (organizations.json() as { results: Array<{ id: string; name_inc: string }> }).results.find((row) => row.name_inc === 'Acme Holdings GmbH');
    assert.ok(accepted, 'the suggestion became an organization');

    // The item's page: completed, what was found, the organization linked to its record.
    await page.goto(server.url('demo', `/rawdata/${itemId}/edit`));
    await page.getByTestId('processing-status').getByText('Completed').waitFor();
    const found = page.getByTestId('found-entities');
    await found.getByText('Amounts (1)').waitFor();
    // Found as a suggestion, accepted since: the chip opens the record it became.
    assert.equal(await found.getByRole('link', { name: /^Acme Holdings GmbH/ }).getAttribute('href'), `/organizations/${accepted.id}`);
    await page.getByTestId('extracted-text').getByText(/Quarterly Report/).waitFor();
    await screenshots(page, 'processing-item');

    // The analysis report of the list: started, followed, downloaded.
    await page.goto(server.url('demo', '/rawdata?tab=1'));
    await page.getByRole('button', { name: 'Analysis report' }).click();
    const dialog = page.getByRole('dialog', { name: 'Analysis report' });
    await dialog.getByTestId('report-ready').waitFor({ timeout: 120_000 });
    await screenshots(page, 'processing-report', { viewportOnly: true });
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Page with charts (.html)' }).click()]);
    assert.match(download.suggestedFilename(), /_demo_raw_data_report\.html$/);
  });
});
