/**
 * A spreadsheet import that outlasts the upload's wait, in the browser: the upload dialog shows the
 * job waiting, then its stage and percent while it imports, then the same report as a small
 * file gets, and the table shows the new rows. The upload does not wait here and the job pauses
 * after its first batch until the test has seen the percent, so nothing depends on timing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { importJobRegistry } from '@intelnotes/server/testing/import-jobs';
import { xlsx } from '@intelnotes/server/testing/xlsx';
import { useServerAndBrowser, browserUnavailable, screenshots, type E2EServer, openSignedIn, DESKTOP } from './support/browser.ts';

type TenantRow = Awaited<ReturnType<E2EServer['createTenant']>>;

const unavailable = browserUnavailable();

describe('a big spreadsheet import runs as a job', { skip: unavailable ?? false }, () => {
  let demo: TenantRow;
  const workDir = mkdtempSync(path.join(tmpdir(), 'intelnotes-e2e-import-'));

  const { server, browser } = useServerAndBrowser(async () => {
    demo = await server.createTenant('demo', { name: 'Demo Research' });
    await server.createUser(demo, 'research@demo.test', { is_research: true });
  }, { IMPORT_WAIT_SECONDS: '0' });

  it('shows the job waiting, its progress, then the report, and the rows in the table', async () => {
    const file = path.join(workDir, 'big-organizations.xlsx');
    writeFileSync(
      file,
      await xlsx([
        ['Name Inc', 'HQ City', 'Visibility'],
        ...Array.from({ length: 8 }, (_, index) => [`Imported Job Org ${index + 1}`, 'Porto', 'public']),
      ]),
    );

    const page = await browser.newPage({ viewport: DESKTOP });
    await openSignedIn(page, server.url('demo', '/organizations?tab=1'), 'research@demo.test', 'research');
    await page.getByRole('button', { name: 'Upload' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Spreadsheet file').setInputFiles(file);
    // All or nothing (the default): written in staged batches, each reporting its percent.
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

    // No worker runs yet: the job waits, and the dialog says so.
    const progress = dialog.getByTestId('import-progress');
    await progress.getByText('Waiting to start — 0%').waitFor();

    // Batches of 3 rows; the job stops after the first until the test has read its percent.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let paused!: () => void;
    const reachedBatch = new Promise<void>((resolve) => (paused = resolve));
    await server.startWorker({
      registry: importJobRegistry(server.engine, {
        batchRows: 3,
        afterBatch: async (_context, percent) => {
          if (percent > 50) return;
          paused();
          await released;
        },
      }),
    });
    try {
      await reachedBatch;
      await progress.getByText('Importing rows — 37%').waitFor();
      assert.equal(await dialog.getByRole('progressbar', { name: 'Import: Importing rows' }).getAttribute('aria-valuenow'), '37');
      await screenshots(page, 'import-job-progress', { viewportOnly: true });
    } finally {
      // A paused job would keep the server from closing.
      release();
    }

    const report = dialog.getByTestId('import-report');
    await report.waitFor();
    assert.match(await report.innerText(), /8 created · 0 updated · 0 failed/);
    await progress.waitFor({ state: 'detached' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    const grid = page.getByRole('grid', { name: 'Organizations' });
    for (const index of [1, 8]) await grid.getByRole('link', { name: `Imported Job Org ${index}`, exact: true }).waitFor();
    await page.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);
