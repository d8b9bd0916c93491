import { card, expect, isMobile, lastAnswer, screenshot, send, sendAndWait, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

test('a server tool: its result is a readable card, its JSON one click away', async ({ page }) => {
  await sendAndWait(page, 'use getWeather for Paris');
  const weather = card(page, 'getWeather');
  await expect(weather).toHaveAttribute('data-state', 'output-available');
  await expect(weather.getByTestId('tool-result')).toContainText('°C');
  await expect(weather.getByTestId('tool-result')).toContainText('Paris');
  const json = weather.locator('pre.cw-json');
  await expect(json).toBeHidden();
  await weather.getByText('JSON', { exact: true }).click();
  await expect(json).toContainText('"city": "Paris"');
  // The closing text is a sentence about the result, not the raw JSON.
  await expect(lastAnswer(page)).toContainText('getWeather returned city Paris');
  await expect(lastAnswer(page).locator('.cw-markdown').last()).not.toContainText('{');
});

test('the scripted model reads "for Paris" as the city, and "for Paris for 3 days" as the city and the days', async ({ page }) => {
  await sendAndWait(page, 'use getForecast for Paris');
  await expect(card(page, 'getForecast').locator('.cw-tool-input')).toContainText('City: Paris');
  await expect(card(page, 'getForecast').locator('.cw-tool-input')).not.toContainText('use getForecast');
  await sendAndWait(page, 'use getForecast for Paris for 3 days');
  const forecast = card(page, 'getForecast');
  await expect(forecast.getByTestId('tool-result')).toContainText('Forecast for Paris');
  await expect(forecast.locator('.result-days li')).toHaveCount(3);
  await expect(forecast.locator('.cw-tool-input')).toContainText('City: Paris');
  await expect(lastAnswer(page)).toContainText('getForecast returned city Paris, units metric and 3 days');
  await screenshot(page, 'demo-result-cards');
});

test('a browser tool changes the page', async ({ page }) => {
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'light');
  await sendAndWait(page, 'use setTheme dark');
  await expect(card(page, 'setTheme')).toHaveAttribute('data-state', 'output-available');
  await expect(card(page, 'setTheme')).toContainText('Switched to the dark theme');
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'dark');
});

test('approve: the sensitive call waits, then runs after Approve', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  await expect(refund).toHaveAttribute('data-state', 'approval-requested');
  await expect(refund).toContainText('Waiting for your approval');
  await expect(refund.locator('.cw-tool-input')).toContainText('Order id: ORD-1234');
  await screenshot(page, 'demo-approval');
  await refund.getByRole('button', { name: 'Approve' }).click();
  await expect(refund).toHaveAttribute('data-state', 'output-available');
  await expect(refund.getByTestId('tool-result')).toContainText('Refund of');
  await expect(refund.getByTestId('tool-result')).toContainText('ORD-1234');
  await expect(lastAnswer(page)).toContainText('refundOrder returned');
});

test('deny reads as the user\'s choice: Declined, not a failure', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  await refund.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(refund.getByTestId('tool-state')).toHaveText('Declined');
  await expect(refund.getByTestId('tool-declined')).toHaveText('You declined this, so refundOrder did not run.');
  await expect(refund.getByTestId('tool-error')).toHaveCount(0);
  await expect(lastAnswer(page)).toContainText('You declined refundOrder, so I did not run it.');
  for (const word of ['Cancelled', 'failed']) await expect(lastAnswer(page)).not.toContainText(word);
});

test('sending while an approval waits says it declines it, and it does', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const note = page.getByTestId('pending-approval-note');
  await expect(note).toHaveText('Waiting for your approval of refundOrder. Sending a new message declines it.');
  await expect(page.getByLabel('Message', { exact: true })).toHaveAttribute('aria-describedby', 'pending-note');
  await screenshot(page, 'demo-pending-approval');
  await sendAndWait(page, 'hello');
  await expect(note).toHaveCount(0);
  await expect(card(page, 'refundOrder').getByTestId('tool-state')).toHaveText('Declined (you sent a new message)');
  await expect(lastAnswer(page)).toContainText('You said: "hello"');
});

test('two browser tools called in parallel both run', async ({ page }) => {
  await sendAndWait(page, 'use showBanner saying "Sale ends today" and setTheme dark');
  await expect(card(page, 'showBanner')).toHaveAttribute('data-state', 'output-available');
  await expect(card(page, 'setTheme')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('banner')).toHaveText('Sale ends today');
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'dark');
  await expect(lastAnswer(page)).toContainText('showBanner returned');
});

test('discovery shows as a compact step ("Discovered addTodo"), and the to-do list is reachable at every width', async ({ page }) => {
  await send(page, 'use addTodo for buy oat milk');
  await expect(card(page, 'addTodo')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('status')).toHaveText('ready');
  // No raw card for the internal discovery call: a one-line step that expands.
  await expect(page.locator('[data-testid="tool-call"][data-tool="__lazy__tool__discovery__"]')).toHaveCount(0);
  const step = page.getByTestId('discovery-step');
  await expect(step.locator('summary').first()).toHaveText(/Discovered addTodo$/);
  await expect(step.locator('.cw-step-body')).toBeHidden();
  await step.locator('summary').first().click();
  await expect(step.locator('.cw-step-body')).toContainText('addTodo');
  // The step comes before the call it made possible.
  const order = await page.locator('[data-testid="discovery-step"], [data-testid="tool-call"]').evaluateAll((elements) =>
    elements.map((element) => element.getAttribute('data-tool') ?? 'step'),
  );
  expect(order).toEqual(['step', 'addTodo']);
  await expect(card(page, 'addTodo')).toContainText('Added to your to-do list: “buy oat milk”');
  await expect(lastAnswer(page)).toContainText('addTodo returned added yes and title buy oat milk.');

  const todos = page.getByTestId('todos');
  if (isMobile(page)) {
    // On a phone the list is a drawer: the header says something was added, and one tap shows it.
    await expect(todos).toBeHidden();
    await expect(page.getByTestId('panel-count')).toHaveText('1');
    await card(page, 'addTodo').getByRole('button', { name: 'Show the list' }).click();
  }
  await expect(todos).toBeVisible();
  await expect(todos).toContainText('buy oat milk');
  await screenshot(page, 'demo-todo');
  if (isMobile(page)) {
    await page.getByRole('complementary', { name: 'Notes and to-do' }).getByRole('button', { name: 'Close' }).click();
    await expect(todos).toBeHidden();
    await page.getByTestId('panel-toggle').click();
    await expect(todos).toBeVisible();
  }
});

test('long content never overflows its bubble or the page', async ({ page }) => {
  const long = `${'a'.repeat(180)}https://example.com/${'path/'.repeat(30)}`;
  await sendAndWait(page, `use showBanner saying "${long}"`);
  await sendAndWait(page, `say ${long}`);
  await sendAndWait(page, 'show me some markdown');
  const width = page.viewportSize()!.width;
  const bubbles = await page.locator('.cw-message').evaluateAll((elements) =>
    elements.map((element) => ({ scroll: element.scrollWidth, client: element.clientWidth, right: element.getBoundingClientRect().right })),
  );
  expect(bubbles.length).toBe(6);
  for (const bubble of bubbles) {
    expect(bubble.scroll).toBeLessThanOrEqual(bubble.client + 1);
    expect(bubble.right).toBeLessThanOrEqual(width);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  await screenshot(page, 'demo-long-content');
});
