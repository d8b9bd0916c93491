import type { Locator, Page } from '@playwright/test';
import { card, expect, isMobile, screenshot, sendAndWait, test } from './fixtures.ts';

/**
 * The devtools views that explain discovery and replay the chat: the search playground, discovery
 * health, unused tools and time travel, in the demo, in each dock the window has room for. Each
 * test saves its view's picture under test-results/screenshots/; with DOCS_SCREENSHOTS=1 (`npm run
 * screenshots`) the 1,280 px ones are written to docs/images/ for docs/devtools.md.
 */

const panelOf = (page: Page) => page.getByTestId('chatwire-devtools');
const host = (page: Page) => page.locator('[data-chatwire-devtools]');

async function openTab(page: Page, name: string): Promise<Locator> {
  if ((await panelOf(page).count()) === 0) await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = panelOf(page);
  await expect(panel).toBeVisible();
  await panel.getByRole('tab', { name, exact: true }).click();
  return panel;
}

/** The picture of the panel (or of the whole page, the app beside the panel) for a person, and for the docs when asked. */
async function picture(page: Page, target: Locator | Page, name: string): Promise<void> {
  await screenshot(page, `devtools-${name}`, target === page ? undefined : (target as Locator));
  if (process.env['DOCS_SCREENSHOTS'] === '1' && !isMobile(page))
    await target.screenshot({ path: `docs/images/devtools-${name}.png`, animations: 'disabled', caret: 'hide', scale: 'css' });
}

/** The docks this window has room for (a phone has none beside the page). */
const docksFor = (page: Page) =>
  isMobile(page)
    ? (['Dock at the bottom', 'Float over the page'] as const)
    : (['Dock on the right', 'Dock at the bottom', 'Float over the page'] as const);

test('the search playground finds getForecast for a request in other words, with the words it matched', async ({ page }) => {
  await page.goto('/');
  const panel = await openTab(page, 'Search');
  // The demo discovers by name; the catalog says so, and the playground runs the search it would use.
  await expect(panel.getByTestId('playground-setup')).toContainText('The server discovers by name');
  await expect(panel.getByTestId('playground-setup')).toContainText('topK 5 and minScore 0.3');
  await panel.getByLabel('Request').fill('weather for the next days in Paris');
  const first = panel.getByTestId('playground-row').first();
  await expect(first).toHaveAttribute('data-tool', 'getForecast');
  await expect(first).toHaveAttribute('data-returned', 'true');
  // getForecast's description speaks of the weather and of days ("Multi-day"), its `days` parameter too.
  await expect(first.locator('.cw-match[data-word="days"]')).toContainText('description, parameters');
  await expect(first.locator('.cw-match[data-word="weather"]')).toContainText('description');
  // "Paris" and "next" are in no tool; "for", "the" and "in" are not searched.
  await expect(panel.getByTestId('playground-word').filter({ hasText: 'paris' })).toContainText('in no tool');
  await expect(panel.getByTestId('playground-words')).toContainText('not searched: for, the, in');
  await expect(panel.getByTestId('playground-cut')).toContainText('minScore 0.3 cuts');

  // Why another tool did not make it: the calendar matches "days" only.
  await panel.getByLabel('Expected tool').selectOption('listCalendarEvents');
  const why = panel.getByTestId('playground-expected');
  await expect(why).toHaveAttribute('data-outcome', /^(returned|cut)$/);
  await expect(why).toContainText('Matched “days”');
  await expect(why).toContainText('The best match, getForecast, has “weather”');
  // The request from its start in the picture (typing left the field scrolled to its end).
  await panel.getByLabel('Request').evaluate((input) => (input.scrollLeft = 0));
  await picture(page, panel, 'search');

  // Usable in every dock the window has room for.
  for (const dock of docksFor(page)) {
    await panel.getByRole('button', { name: dock }).click();
    // Within reach: in view, or once the panel's body scrolls to it (a phone's short bottom dock).
    await first.scrollIntoViewIfNeeded();
    await expect(first).toBeInViewport();
    await panel.getByLabel('Request').scrollIntoViewIfNeeded();
    await expect(panel.getByLabel('Request')).toBeInViewport();
  }
  await expect(host(page)).toHaveAttribute('data-dock', 'floating');
});

test("discovery health lists the demo's least findable tool first, and the playground agrees", async ({ page }) => {
  await page.goto('/');
  const panel = await openTab(page, 'Health');
  const rows = panel.getByTestId('health-row');
  await expect(rows.first()).toBeVisible();
  // Every demo tool is first for its own words; getOrder least so: "get" is the commonest verb of the catalog's names and
  // "order" is also in cancelOrder's and listOrders' names, so a request "get order" finds them nearly as well.
  await expect(rows.first()).toHaveAttribute('data-tool', 'getOrder');
  await expect(rows.first().getByTestId('health-confused')).toContainText('cancelOrder');
  await expect(rows.first().getByTestId('health-margin')).toHaveText(/^0\.0\d$/);
  // First for each of its three requests, so fully findable: its margin is what puts it first.
  await expect(rows.first().getByTestId('health-findability')).toHaveText('100%');
  await expect(rows.first().getByTestId('health-ranks')).toHaveText('1 · 1 · 1');
  // Its definition's cost, as the server's catalog counts it.
  const catalog = (await (await page.request.get('/api/tools')).json()) as { tools: { name: string; tokens?: number }[] };
  const tokens = catalog.tools.find((tool) => tool.name === 'getOrder')?.tokens;
  expect(tokens).toBeGreaterThan(0);
  await expect(rows.first().getByTestId('health-tokens')).toHaveText(String(tokens));
  await expect(panel.getByTestId('health-summary')).toContainText('47 lazy tools');
  await picture(page, panel, 'health');

  // The same search, by hand: cancelOrder comes second, within a tenth of getOrder.
  await panel.getByRole('tab', { name: 'Search', exact: true }).click();
  await panel.getByLabel('Request').fill('get order');
  await expect(panel.getByTestId('playground-row').nth(0)).toHaveAttribute('data-tool', 'getOrder');
  await expect(panel.getByTestId('playground-row').nth(1)).toHaveAttribute('data-tool', 'cancelOrder');
  const second = Number(await panel.getByTestId('playground-row').nth(1).locator('td.num').nth(1).textContent());
  expect(second).toBeGreaterThan(0.9);

  for (const dock of docksFor(page)) {
    await panel.getByRole('button', { name: dock }).click();
    await panel.getByRole('tab', { name: 'Health', exact: true }).click();
    await rows.first().scrollIntoViewIfNeeded();
    await expect(rows.first()).toBeInViewport();
  }
});

test('time travel to before the approval shows the call waiting for approval while the app shows it done', async ({ page }) => {
  await page.goto('/');
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  await expect(refund).toHaveAttribute('data-state', 'approval-requested');
  await refund.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(refund).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('status')).toHaveText('ready');

  const panel = await openTab(page, 'Time travel');
  const call = panel.locator('[data-testid="travel-call"][data-tool="refundOrder"]');
  await expect(call).toHaveAttribute('data-state', 'output-available');
  await panel.getByLabel('Find actions').fill('approvalResponse');
  const answer = panel.getByTestId('travel-action');
  await expect(answer).toHaveCount(1);
  await expect(answer).toContainText('approvalResponse (approved)');
  await answer.getByRole('button').click();
  await panel.getByRole('button', { name: 'Step back' }).click();
  await expect(call).toHaveAttribute('data-state', 'approval-requested');
  await expect(call).toHaveAttribute('data-live-state', 'output-available');
  await expect(call).toContainText('now output-available');
  await expect(panel.getByTestId('travel-chat')).toContainText('1 waiting for approval');
  // The app did not move: the card is done, nothing asks for approval.
  await expect(refund).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(0);
  await expect(page.getByTestId('status')).toHaveText('ready');
  // The whole page: the app's card done beside the panel's replay of the call waiting.
  await picture(page, page, 'time-travel');

  for (const dock of docksFor(page)) {
    await panel.getByRole('button', { name: dock }).click();
    await panel.getByLabel('Step', { exact: true }).scrollIntoViewIfNeeded();
    await expect(panel.getByLabel('Step', { exact: true })).toBeInViewport();
    await expect(call).toHaveAttribute('data-state', 'approval-requested');
  }
});

test('unused tools: a tool discovered and not called since, with what it cost per request', async ({ page }) => {
  await page.goto('/');
  await sendAndWait(page, 'use getForecast for Paris for 3 days');
  await sendAndWait(page, 'hello');
  await sendAndWait(page, 'thanks');
  const panel = await openTab(page, 'Unused');
  await panel.getByLabel('Turns without a call').fill('2');
  const row = panel.locator('[data-testid="unused-row"][data-tool="getForecast"]');
  await expect(row).toHaveAttribute('data-unused', 'true');
  // Called in turn 1; turns 2 and 3 each made one model call that was sent its definition.
  await expect(row.locator('td').nth(2)).toHaveText('1');
  await expect(row.locator('td').nth(3)).toHaveText('2');
  await expect(row.locator('td').nth(4)).toHaveText('2');
  const perRequest = Number(await row.locator('td').nth(5).textContent());
  expect(perRequest).toBeGreaterThan(50);
  await expect(row.locator('td').nth(6)).toHaveText(String(perRequest * 2));
  await picture(page, panel, 'unused');
});
