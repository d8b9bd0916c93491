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

test('a streamed answer', async ({ page }) => {
  await send(page, 'hello there');
  const text = lastAnswer(page).locator('p');
  // The text streams in (state "streaming", then "done") and the chat goes back to ready.
  await expect(text).toHaveAttribute('data-state', 'streaming');
  await expect(text).toHaveAttribute('data-state', 'done');
  await expect(text).toContainText('You said: "hello there"');
  await expect(page.getByTestId('status')).toHaveText('ready');
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
