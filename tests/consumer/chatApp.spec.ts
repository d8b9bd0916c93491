import { expect, test, type Locator, type Page } from '@playwright/test';

// The example app (examples/chat-app), installed from the packed tarballs and built, in Chromium at
// desktop width and at 390 px. It is built from @chatwire/ui, as the demo is.

async function send(page: Page, text: string) {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const toolCall = (page: Page, tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`).last();
const lastAnswer = (page: Page) => page.locator('[data-role="assistant"]').last();

/** Lifecycle state names that must never show as text. */
const RAW_STATES =
  /awaiting-input|input-streaming|input-complete|approval-requested|approval-responded|output-available|output-error|__lazy__tool__discovery__/;

/** The conversation's text as a person sees it (folded JSON and closed steps left out). */
const visibleText = (page: Page) =>
  page.getByRole('log', { name: 'Conversation' }).evaluate((element) => (element as HTMLElement).innerText);

/** No raw state names, no JSON, nothing wider than the screen. */
async function readable(page: Page, locator: Locator = page.getByRole('log', { name: 'Conversation' })) {
  const text = await visibleText(page);
  expect(text).not.toMatch(RAW_STATES);
  expect(text).not.toMatch(/\{\s*"[^"]+"\s*:/); // a JSON object
  const width = page.viewportSize()!.width;
  const box = await locator.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
    right: element.getBoundingClientRect().right,
  }));
  expect(box.scroll).toBeLessThanOrEqual(box.client + 1);
  expect(box.right).toBeLessThanOrEqual(width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

// Errors the page logged (uncaught exceptions, console errors); none are expected.
let problems: string[] = [];

test.beforeEach(async ({ page }) => {
  problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Chat' })).toBeVisible();
});

test.afterEach(() => {
  expect(problems).toEqual([]);
});

type Seen = { state: string | null; length: number };

test('a streamed answer, rendered as Markdown', async ({ page }) => {
  // Records every rendered state of the answer's text, so the stream is seen however fast it is.
  await page.evaluate(() => {
    const seen: Seen[] = [];
    (window as unknown as { seen: Seen[] }).seen = seen;
    new MutationObserver(() => {
      const text = [...document.querySelectorAll('[data-role="assistant"] .cw-text')].at(-1);
      if (!text) return;
      const entry = { state: text.getAttribute('data-state'), length: text.textContent?.length ?? 0 };
      const last = seen.at(-1);
      if (last?.state !== entry.state || last.length !== entry.length) seen.push(entry);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await send(page, 'hello there');
  const text = lastAnswer(page).locator('.cw-text');
  await expect(text).toHaveAttribute('data-state', 'done');
  await expect(text).toContainText('You said: "hello there"');
  await expect(page.getByTestId('status')).toHaveText('ready');
  const seen = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
  // The text arrived in pieces: several growing renders while streaming, then the final one.
  const streaming = seen.filter((entry) => entry.state === 'streaming');
  expect(streaming.length, JSON.stringify(seen)).toBeGreaterThan(2);
  expect(streaming.every((entry, index) => index === 0 || entry.length > (streaming[index - 1]?.length ?? 0))).toBe(true);
  expect(seen.at(-1)?.state).toBe('done');
  await expect(lastAnswer(page).locator('.cw-markdown')).toBeVisible();
});

test('a server tool: a readable card drawn by its registered renderer', async ({ page }) => {
  await send(page, 'use getWeather for Paris');
  const weather = toolCall(page, 'getWeather');
  await expect(weather.getByTestId('tool-state')).toHaveText('Done');
  await expect(weather.getByTestId('tool-result')).toHaveText('18 °C and clear in Paris');
  await expect(weather).toContainText('City: Paris');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await readable(page);
});

test('a browser tool runs in the page', async ({ page }) => {
  await expect(page.locator('.app')).toHaveAttribute('data-theme', 'light');
  await send(page, 'use setTheme dark');
  await expect(toolCall(page, 'setTheme').getByTestId('tool-state')).toHaveText('Done');
  await expect(page.locator('.app')).toHaveAttribute('data-theme', 'dark');
  await expect(lastAnswer(page)).toContainText('setTheme returned');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await readable(page);
});

test('an approval, approved: the server tool runs after Approve, every state in words', async ({ page }) => {
  await send(page, 'use refundOrder for ORD-1234');
  const refund = toolCall(page, 'refundOrder');
  await expect(refund.getByTestId('tool-state')).toHaveText('Waiting for your approval');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.getByRole('note')).toHaveText('Waiting for your approval of refundOrder. Sending a new message declines it.');
  await readable(page);
  await refund.getByRole('group', { name: 'Allow refundOrder to run?' }).getByRole('button', { name: 'Approve' }).click();
  await expect(refund.getByTestId('tool-state')).toHaveText('Done');
  // The generic card: the output as labelled fields, not JSON.
  await expect(refund.getByTestId('tool-result')).toContainText('Order id');
  await expect(refund.getByTestId('tool-result')).toContainText('ORD-1234');
  await expect(refund.getByTestId('tool-result')).toContainText('Refunded');
  await expect(lastAnswer(page)).toContainText('refundOrder returned');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await readable(page);
  // The raw JSON is one click away.
  await refund.getByText('JSON', { exact: true }).click();
  await expect(refund.locator('pre.cw-json')).toContainText('"refunded": true');
});

test("a lazy tool: the discovery step, then the tool's card", async ({ page }) => {
  await send(page, 'use getForecast for Paris');
  const forecast = toolCall(page, 'getForecast');
  await expect(forecast.getByTestId('tool-state')).toHaveText('Done');
  await expect(page.getByTestId('status')).toHaveText('ready');
  const step = page.getByTestId('discovery-step');
  await expect(step.locator('summary').first()).toHaveText(/Discovered getForecast$/);
  await expect(forecast.locator('.forecast li')).toHaveCount(3);
  // The step comes before the call it made possible, and shows no raw discovery call.
  const order = await page
    .locator('[data-testid="discovery-step"], [data-testid="tool-call"]')
    .evaluateAll((elements) => elements.map((element) => element.getAttribute('data-tool') ?? 'step'));
  expect(order).toEqual(['step', 'getForecast']);
  await readable(page);
});
