import { expect, test, type Page } from '@playwright/test';

// The example app (examples/chat-app), installed from the packed tarballs and built, in Chromium.

async function send(page: Page, text: string) {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const toolCall = (page: Page, tool: string) => page.locator(`.tool-call[data-tool="${tool}"]`).last();
const lastAnswer = (page: Page) => page.locator('[data-role="assistant"]').last();

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

test('a streamed answer', async ({ page }) => {
  // Records every rendered state of the answer's text, so the stream is seen however fast it is.
  await page.evaluate(() => {
    const seen: Seen[] = [];
    (window as unknown as { seen: Seen[] }).seen = seen;
    new MutationObserver(() => {
      const text = [...document.querySelectorAll('[data-role="assistant"] p')].at(-1);
      if (!text) return;
      const entry = { state: text.getAttribute('data-state'), length: text.textContent?.length ?? 0 };
      const last = seen.at(-1);
      if (last?.state !== entry.state || last.length !== entry.length) seen.push(entry);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  await send(page, 'hello there');
  const text = lastAnswer(page).locator('p');
  await expect(text).toHaveAttribute('data-state', 'done');
  await expect(text).toContainText('You said: "hello there"');
  await expect(page.getByTestId('status')).toHaveText('ready');
  const seen = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
  // The text arrived in pieces: several growing renders while streaming, then the final one.
  const streaming = seen.filter((entry) => entry.state === 'streaming');
  expect(streaming.length, JSON.stringify(seen)).toBeGreaterThan(2);
  expect(streaming.every((entry, index) => index === 0 || entry.length > (streaming[index - 1]?.length ?? 0))).toBe(true);
  expect(seen.at(-1)?.state).toBe('done');
});

test('a browser tool runs in the page', async ({ page }) => {
  await expect(page.locator('main')).toHaveAttribute('data-theme', 'light');
  await send(page, 'use setTheme dark');
  await expect(toolCall(page, 'setTheme')).toHaveAttribute('data-state', 'output-available');
  await expect(page.locator('main')).toHaveAttribute('data-theme', 'dark');
  await expect(lastAnswer(page)).toContainText('setTheme returned');
  await expect(page.getByTestId('status')).toHaveText('ready');
});

test('an approval, approved: the server tool runs after Approve', async ({ page }) => {
  await send(page, 'use refundOrder for ORD-1234');
  const refund = toolCall(page, 'refundOrder');
  await expect(refund).toHaveAttribute('data-state', 'approval-requested');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await refund.getByRole('button', { name: 'Approve' }).click();
  await expect(refund).toHaveAttribute('data-state', 'output-available');
  await expect(refund.getByTestId('tool-result')).toHaveText('{"orderId":"ORD-1234","refunded":true}');
  await expect(lastAnswer(page)).toContainText('refundOrder returned');
  await expect(page.getByTestId('status')).toHaveText('ready');
});
