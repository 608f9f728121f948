import type { Browser } from 'playwright-core';
import { startHarness, type Harness } from '../helpers/harness';
import { launchChromium } from './chromium';

describe('the API reference in a real headless browser', () => {
  let harness: Harness;
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    harness = await startHarness();
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.stop();
  });

  it('renders /docs from the engine alone and shows the pay-v2 operation', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(harness.url)) foreign.push(request.url());
    });
    page.on('requestfailed', (request) => failed.push(request.url()));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    await page.goto(`${harness.url}/docs`);
    // Swagger UI draws only the operations near the screen; the filter box narrows the list as a reader would.
    await page.locator('input.operation-filter-input').fill('checkout');
    const operation = page.locator('.opblock-summary-path', { hasText: '/api/public/v1/checkout/pay-v2' });
    await operation
      .first()
      .waitFor({ state: 'visible', timeout: 30_000 })
      .catch(async (error: Error) => {
        const shown = `${await page.locator('.opblock').count()} operations; ${(await page.locator('body').innerText()).slice(0, 3000)}`;
        throw new Error(`${error.message}\npage errors: ${JSON.stringify(consoleErrors)}\npage shows: ${shown}`);
      });
    expect(await operation.count()).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
  });
});
