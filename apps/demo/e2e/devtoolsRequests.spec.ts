import { card, expect, screenshot, sendAndWait, test } from './fixtures.ts';

/**
 * The devtools' Requests view on the demo (its served server runs with `inspectRequests`, as `npm start`
 * does): the second model call of a lazy tool's turn, the discovered tool in its diff, and a token budget
 * whose blocks add up to the input the call's accounting counted. Saves a screenshot of the view on every
 * run; `npm run screenshots` (DOCS_SCREENSHOTS=1) writes it to docs/images/devtools-requests-<width>.png.
 */
test('the Requests view shows the lazy turn’s second call: the discovered tool in its diff, a budget that adds up', async ({ page }) => {
  await page.goto('/');
  await sendAndWait(page, 'use trackShipment for TRK-123456');
  await expect(card(page, 'trackShipment')).toHaveAttribute('data-state', 'output-available');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await panel.getByRole('tab', { name: 'Requests' }).click();
  const view = panel.getByTestId('requests-view');
  await expect(view).toBeVisible();
  // The turn had three model calls: the discovery, the call with trackShipment, the answer. The second:
  await view.getByLabel('Request').selectOption('Model call 2');
  await expect(view.getByTestId('request-diff-tools-added')).toHaveAttribute('data-items', 'trackShipment');
  await expect(view.getByTestId('request-diff-tools-added')).toContainText('trackShipment');
  // Its messages added: the model's discovery call and its result; the prompt cache breaks after the tool list.
  await expect(view.getByTestId('request-diff-messages-added')).toContainText(/assistant.*tool/);
  await expect(view.getByTestId('request-cache-break')).toHaveAttribute('data-at', 'tools');
  await expect(view.getByTestId('request-cache-break')).toContainText('trackShipment');

  // The budget: its blocks add up to the counted input, which is the accounting record's input for the call.
  const total = view.getByTestId('request-budget-total');
  const counted = Number(await total.getAttribute('data-tokens'));
  expect(counted).toBeGreaterThan(0);
  await expect(total).toHaveAttribute('data-accounting', String(counted));
  const blocks = await view
    .getByTestId('request-budget-row')
    .evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-block'), Number(row.getAttribute('data-tokens'))] as const));
  expect(blocks.map(([block]) => block)).toEqual(['system', 'tools', 'history', 'input', 'framing']);
  expect(blocks.every(([, tokens]) => tokens > 0)).toBe(true);
  expect(blocks.reduce((sum, [, tokens]) => sum + tokens, 0)).toBe(counted);
  // The cell shows the same figure as the attribute (formatted).
  await expect(total.locator('th').nth(1)).toHaveText(counted.toLocaleString('en-US'));
  // The prefix the previous call left in the cache, as the cost model counts it: the first call's tool list.
  await expect(view.getByTestId('request-prefix')).toHaveAttribute('data-source', 'modelled');
  expect(Number(await view.getByTestId('request-prefix').getAttribute('data-tokens'))).toBeGreaterThan(0);

  // The request as sent: the discovered tool's definition is among its texts.
  await view.getByText(/^Tools \(\d+\)$/).click();
  await expect(view.locator('[data-testid="request-text"][data-block="tool"]', { hasText: '"name":"trackShipment"' })).toBeVisible();
  await view.getByText(/^Tools \(\d+\)$/).click();

  await view.getByTestId('request-budget').scrollIntoViewIfNeeded();
  await screenshot(page, 'devtools-requests');
  if (process.env['DOCS_SCREENSHOTS'] === '1') {
    const { width } = page.viewportSize()!;
    await page.screenshot({ scale: 'css', animations: 'disabled', caret: 'hide', path: `docs/images/devtools-requests-${width}.png` });
  }
});
