import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserUnavailable, DESKTOP, screenshots } from './support/browser.ts';
import { adminFixture } from './support/admin.ts';

const unavailable = browserUnavailable();

/** Admin screens, split by area (see support/admin.ts): a tenant's settings, reflected in header and footer. */
describe('admin screens: settings', { skip: unavailable ?? false }, () => {
  const { server, browser, signIn, fieldError } = adminFixture();

  it("an admin changes the settings from the menu and sees the header and footer follow", async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'brand', 'admin@brand.test');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/settings');
    await page.getByRole('textbox', { name: 'Workspace name' }).waitFor();
    await screenshots(page, 'admin-settings', { hideToasts: true });

    await page.getByRole('textbox', { name: 'Open-data link' }).fill('not a link');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await fieldError(page, 'Enter a valid web address.').waitFor();
    await screenshots(page, 'admin-settings-errors', { hideToasts: true });

    await page.getByRole('textbox', { name: 'Open-data link' }).fill('data.brand.example');
    await page.getByRole('textbox', { name: 'Workspace name' }).fill('Brand Intelligence');
    await page.getByLabel('Footer text').fill('Run by Brand Ltd · hello@brand.example');
    await page.getByLabel('Show the access level').uncheck();
    await page.getByLabel('Show the invitation to set up an instance').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();

    const footer = page.locator('footer');
    await page.getByTestId('tenant-name').filter({ hasText: 'Brand Intelligence' }).waitFor();
    await footer.getByTestId('footer-text').filter({ hasText: 'Run by Brand Ltd · hello@brand.example' }).waitFor();
    assert.equal(await page.getByTestId('access-level').count(), 0);
    assert.equal(await footer.getByText('Want intel notes for your own team?').count(), 0);
    assert.equal(await footer.getByRole('link', { name: 'Open data' }).getAttribute('href'), 'https://data.brand.example/');
    assert.equal(await page.getByRole('textbox', { name: 'Open-data link' }).inputValue(), 'https://data.brand.example/', 'the form shows what was saved');
    await screenshots(page, 'admin-settings-applied', { hideToasts: true });

    // Signed-out visitors get the same header and footer.
    const visitor = await browser.newContext({ viewport: DESKTOP });
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(server.url('brand', '/'));
    await visitorPage.getByTestId('tenant-name').filter({ hasText: 'Brand Intelligence' }).waitFor();
    await visitorPage.locator('footer').getByTestId('footer-text').waitFor();
    assert.equal(await visitorPage.getByTestId('access-level').count(), 0);
    await visitorPage.getByRole('banner').getByRole('link', { name: "Login to read Brand Intelligence's intel notes" }).waitFor();

    // Hiding the name and the open-data link; the copyright and version stay.
    await page.getByLabel('Show the workspace name').uncheck();
    await page.getByLabel('Show the open-data link').uncheck();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').last().waitFor();
    await page.getByTestId('tenant-name').waitFor({ state: 'detached' });
    assert.equal(await footer.getByRole('link', { name: 'Open data' }).count(), 0);
    await footer.getByTestId('app-version').waitFor();
    await visitorPage.reload();
    await visitorPage.locator('footer').getByTestId('footer-text').waitFor();
    assert.equal(await visitorPage.getByTestId('tenant-name').count(), 0);
    await visitor.close();
    await context.close();
  });

  it('an admin sets the lowest confidence processing suggests; a value outside 0 to 1 is refused, naming the field', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await signIn(page, 'brand', 'admin@brand.test', '/settings');
    const threshold = page.getByRole('spinbutton', { name: 'Lowest confidence suggested' });
    assert.equal(await threshold.inputValue(), '0.6', 'the default');
    await threshold.fill('1.5');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await fieldError(page, 'Must be at most 1.').waitFor();
    await threshold.fill('0.8');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    await page.reload();
    assert.equal(await page.getByRole('spinbutton', { name: 'Lowest confidence suggested' }).inputValue(), '0.8');
    await context.close();
  });
});

if (unavailable) console.warn(`browser tests skipped: ${unavailable}`);
