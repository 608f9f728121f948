import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../src/config';

/** One row of the Workflows table as the page shows it: the workflow id and every cell's text. */
export interface ListedRun {
  workflowId: string;
  cells: string[];
}

/**
 * The Workflows page of Temporal UI 2.54 (the dev server's UI), driven through the controls an
 * operator uses: "Add Filter" chips, the raw query box behind the `</>` toggle, and the
 * "Configure Columns" drawer. 2.54 has no free-text search box; a workflow id is a filter like any other.
 */
export class TemporalWorkflowList {
  constructor(
    private readonly page: Page,
    private readonly uiUrl: string,
    private readonly namespace = 'default',
  ) {}

  async open(): Promise<void> {
    await this.page.goto(`${this.uiUrl}/namespaces/${this.namespace}/workflows`);
    await this.page.getByTestId('add-filter-button').waitFor();
  }

  /** Configure Columns: adds columns, removes others, then moves some up by that many places; kept in the browser. */
  async configureColumns(columns: { add: string[]; remove: string[]; moveUp?: Record<string, number> }): Promise<void> {
    await this.page.getByTestId('workflows-summary-table-configuration-button').click();
    const drawer = this.page.locator('#workflows-table-configuration-drawer');
    const press = (label: string) => drawer.getByRole('button', { name: label, exact: true }).click();
    for (const name of columns.add) await press(`Add ${name} column`);
    for (const name of columns.remove) await press(`Remove ${name} column`);
    for (const [name, places] of Object.entries(columns.moveUp ?? {}))
      for (let i = 0; i < places; i++) await press(`Move ${name} column up`);
    await drawer.getByTestId('drawer-close-button').click();
    for (const name of columns.add)
      await this.page.getByTestId(`workflows-summary-table-header-cell-${name}`).waitFor();
  }

  /** Add Filter → the attribute → "Equal to" (the default) → value; Apply unless asked to leave the popover open. */
  async addFilter(attribute: string, value: string, options: { apply: boolean } = { apply: true }): Promise<void> {
    await this.page.getByTestId('add-filter-button').click();
    await this.page.locator('#workflow-filter-search').fill(attribute);
    await this.page.locator('#workflow-search-attribute-menu').getByText(attribute, { exact: true }).click();
    await this.page
      .locator(`input[data-testid^="dropdown-filter-chip-${attribute}-"][data-testid$="-text"]`)
      .filter({ visible: true })
      .fill(value);
    if (options.apply) await this.applyOpenFilter();
  }

  async applyOpenFilter(): Promise<void> {
    await this.page.getByRole('button', { name: 'Apply', exact: true }).filter({ visible: true }).click();
  }

  /** The `</>` toggle shows the raw query box (the List Filter language); Enter runs it. */
  async runQuery(query: string): Promise<void> {
    const box = this.page.getByTestId('workflow-manual-search-input');
    if (!(await box.isVisible())) await this.page.getByTestId('toggle-manual-query').click();
    await box.fill(query);
    await box.press('Enter');
  }

  /** The query the list is showing, from the page's address (where the UI keeps it), without its backquotes. */
  shownQuery(): string {
    return (new URL(this.page.url()).searchParams.get('query') ?? '').replaceAll('`', '');
  }

  /** The shown query once it is `expected`, or whatever it is after `timeoutMs`: the UI updates the address after Apply. */
  async settledQuery(expected: string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.shownQuery() !== expected && Date.now() < deadline) await this.page.waitForTimeout(100);
    return this.shownQuery();
  }

  async rows(): Promise<ListedRun[]> {
    const runs: ListedRun[] = [];
    for (const row of await this.page.getByTestId('workflows-summary-configurable-table-row').all()) {
      // Every link of a row leads to its run: /namespaces/<ns>/workflows/<workflow id>/<run id>/timeline.
      const href = (await row.locator('a').first().getAttribute('href', { timeout: 2000 })) ?? '';
      const cells = (await row.getByTestId('workflows-summary-table-body-cell').allInnerTexts()).map((cell) =>
        cell.trim(),
      );
      runs.push({ workflowId: decodeURIComponent(href.split('/workflows/')[1]?.split('/')[0] ?? ''), cells });
    }
    return runs;
  }

  /**
   * Waits until the list holds exactly `expected` (by workflow id, any order): a filter's results
   * replace the previous list only when the server has answered. Fails with what the page shows.
   */
  async waitForRuns(expected: string[], timeoutMs = 30_000): Promise<ListedRun[]> {
    const want = [...expected].sort();
    const deadline = Date.now() + timeoutMs;
    let shown: ListedRun[] = [];
    for (;;) {
      // A row that the list replaced while being read: read the list again.
      shown = await this.rows().catch(() => shown);
      const ids = shown.map((row) => row.workflowId).sort();
      if (JSON.stringify(ids) === JSON.stringify(want)) return shown;
      if (Date.now() > deadline) break;
      await this.page.waitForTimeout(250);
    }
    throw new Error(
      `the Workflows list (query ${JSON.stringify(this.shownQuery())}) shows ${JSON.stringify(shown)}, expected ${JSON.stringify(want)}`,
    );
  }
}

/**
 * The operations guide's screenshots: `UPDATE_SCREENSHOTS=1 npm run test:browser` rewrites docs/images;
 * other runs (CI) write to a temporary folder, so a test run leaves the checkout unchanged.
 */
export const screenshotDir = process.env.UPDATE_SCREENSHOTS
  ? path.join(projectRoot, 'docs', 'images')
  : path.join(os.tmpdir(), 'payment-engine-screenshots');

/** A screenshot of the page's main area (the navigation column left out), small enough to keep in git. */
export async function saveScreenshot(page: Page, name: string, height = 420): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `temporal-ui-${name}.png`);
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  // Away from any button, so no tooltip is in the picture.
  await page.mouse.move(viewport.width - 1, viewport.height - 1);
  await page
    .locator(':focus')
    .blur({ timeout: 500 })
    .catch(() => undefined);
  await page.waitForTimeout(300);
  await page.screenshot({
    path: file,
    clip: { x: 256, y: 48, width: viewport.width - 256, height: Math.min(height, viewport.height - 48) },
  });
  return file;
}
