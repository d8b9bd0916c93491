import { expect, test, type Page } from '@playwright/test';

async function send(page: Page, text: string) {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
}

test('the devtools panel shows lazy tools being discovered and what discovery saved', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await expect(panel).toBeVisible();

  const row = (tool: string) => panel.locator(`[data-testid="devtools-tool-row"][data-tool="${tool}"]`);
  await expect(row('trackShipment')).toHaveAttribute('data-status', 'undiscovered');
  await expect(row('getLoyaltyPoints')).toHaveAttribute('data-status', 'undiscovered');
  await expect(row('getWeather')).toHaveAttribute('data-status', 'eager');

  await send(page, 'use trackShipment for TRK-123456');
  await expect(row('trackShipment')).toHaveAttribute('data-status', 'discovered');
  await expect(row('trackShipment')).toHaveAttribute('data-sent', 'true');
  await expect(row('getLoyaltyPoints')).toHaveAttribute('data-status', 'undiscovered');

  await send(page, 'use getLoyaltyPoints');
  await expect(row('getLoyaltyPoints')).toHaveAttribute('data-status', 'discovered');
  await expect(panel.getByTestId('count-discovered')).toHaveText('2 discovered');
  // The page's own counter agrees with the panel.
  await expect(page.getByTestId('discovery-count')).toContainText('2/');

  // Looking back at turn 1: the second tool was not discovered yet then.
  await panel.getByLabel('Turn').selectOption('1');
  await expect(row('getLoyaltyPoints')).toHaveAttribute('data-status', 'undiscovered');
  await panel.getByLabel('Turn').selectOption('2');

  await panel.getByRole('tab', { name: 'Tokens' }).click();
  await expect(panel.getByTestId('tokens-turn-row')).toHaveCount(2);
  const saved = panel.getByTestId('tokens-net-saved');
  await expect(saved).toContainText('Net tool tokens saved');
  const figure = Number((await saved.locator('strong').textContent())?.replace(/,/g, ''));
  expect(figure).toBeGreaterThan(1000);
  await expect(panel).toContainText('o200k tokenizer');
  await page.screenshot({ path: 'test-results/devtools-panel.png' });

  await panel.getByRole('tab', { name: 'Timeline' }).click();
  await expect(panel.locator('[data-testid="timeline-row"][data-tool="trackShipment"]')).toHaveAttribute('data-state', 'output-available');

  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel.locator('[data-testid="event-row"][data-type="RUN_FINISHED"]')).toHaveCount(1);
  await panel.getByLabel('Event type').selectOption('CUSTOM');
  await expect(panel.locator('[data-testid="event-row"]').first()).toHaveAttribute('data-type', 'CUSTOM');

  // Keyboard: arrows move between tabs, Escape closes the panel.
  await panel.getByRole('tab', { name: 'Events' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(panel.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
});

test('names and payloads from the model are shown as text, never as HTML', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  await send(page, 'use showBanner saying "<img src=x onerror=alert(1)><b>bold</b>"');
  await expect(page.getByTestId('banner')).toHaveText('<img src=x onerror=alert(1)><b>bold</b>');
  const panel = page.getByTestId('chatwire-devtools');
  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel).toContainText('TOOL_CALL_ARGS');
  // No element was created from the payload, in the page or in the panel.
  await expect(page.locator('img')).toHaveCount(0);
  await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0);
});
