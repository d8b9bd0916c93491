import { expect, test, type Page } from '@playwright/test';

async function send(page: Page, text: string) {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const card = (page: Page, tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`).last();

test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

test('a server tool: the call streams, runs and its result is shown', async ({ page }) => {
  await send(page, 'use getWeather for Paris');
  await expect(card(page, 'getWeather')).toHaveAttribute('data-state', 'output-available');
  await expect(card(page, 'getWeather').getByTestId('tool-result')).toContainText('"city": "Paris"');
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('getWeather returned');
  await expect(page.getByTestId('status')).toHaveText('ready');
});

test('a browser tool changes the page', async ({ page }) => {
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'light');
  await send(page, 'use setTheme dark');
  await expect(card(page, 'setTheme')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('status')).toHaveText('ready');
});

test('approve: the sensitive call waits, then runs after Approve', async ({ page }) => {
  await send(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  await expect(refund).toHaveAttribute('data-state', 'approval-requested');
  await expect(refund).toContainText('Waiting for your approval');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await refund.getByRole('button', { name: 'Approve' }).click();
  await expect(refund).toHaveAttribute('data-state', 'output-available');
  await expect(refund.getByTestId('tool-result')).toContainText('ORD-1234');
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('refundOrder returned');
});

test('deny: the call is cancelled and the model is told', async ({ page }) => {
  await send(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  await refund.getByRole('button', { name: 'Deny' }).click();
  await expect(refund).toHaveAttribute('data-state', 'cancelled');
  await expect(refund.getByTestId('tool-error')).toContainText("declined to run 'refundOrder'");
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('refundOrder failed');
  await expect(page.getByTestId('status')).toHaveText('ready');
});

test('two browser tools called in parallel both run', async ({ page }) => {
  await send(page, 'use showBanner saying "Sale ends today" and setTheme dark');
  await expect(card(page, 'showBanner')).toHaveAttribute('data-state', 'output-available');
  await expect(card(page, 'setTheme')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('banner')).toHaveText('Sale ends today');
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('showBanner returned');
});

test('a lazy browser tool runs in the page only after the model discovered it', async ({ page }) => {
  await send(page, 'use addTodo for buy oat milk');
  await expect(card(page, '__lazy__tool__discovery__')).toHaveAttribute('data-state', 'output-available');
  await expect(card(page, '__lazy__tool__discovery__').getByTestId('tool-result')).toContainText('addTodo');
  await expect(card(page, 'addTodo')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('todos')).toContainText('buy oat milk');
  await expect(page.getByTestId('status')).toHaveText('ready');
  // The discovery call came first in the conversation, the browser call after it.
  const order = await page.locator('[data-testid="tool-call"]').evaluateAll((cards) => cards.map((element) => element.getAttribute('data-tool')));
  expect(order.indexOf('__lazy__tool__discovery__')).toBeLessThan(order.indexOf('addTodo'));
});
