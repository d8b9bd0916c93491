import type { Locator, Page } from '@playwright/test';
import { card, expect, isMobile, lastAnswer, screenshot, send, sendAndWait, test } from './fixtures.ts';

// The demo is built from @chatwire/ui: what a user sees by default, at desktop width and at 390 px.

/** Lifecycle state names that must never show as text. */
const RAW_STATES =
  /awaiting-input|input-streaming|input-complete|approval-requested|approval-responded|output-available|output-error|__lazy__tool__discovery__/;

/** The conversation's text as a person sees it (innerText: folded JSON and closed steps are left out). */
const visibleText = (page: Page) =>
  page.getByRole('log', { name: 'Conversation' }).evaluate((element) => (element as HTMLElement).innerText);

/** Whether an element fits inside the viewport's width and is not wider than its own box. */
async function fits(locator: Locator, page: Page) {
  const width = page.viewportSize()!.width;
  const box = await locator.evaluate((element) => ({
    scroll: element.scrollWidth,
    client: element.clientWidth,
    right: element.getBoundingClientRect().right,
  }));
  expect(box.scroll).toBeLessThanOrEqual(box.client + 1);
  expect(box.right).toBeLessThanOrEqual(width);
}

test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

test('tool cards read as words: state labels and fields, no raw state names or JSON unless asked for', async ({ page }) => {
  await sendAndWait(page, 'use getOrder for ORD-1234');
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  await expect(refund.getByTestId('tool-state')).toHaveText('Waiting for your approval');
  // A labelled group: the server's own prompt for this approval when it sends one, else "Allow refundOrder to run?".
  const prompt = refund.getByTestId('approval-prompt');
  await expect(prompt).toHaveRole('group');
  await expect(prompt).toHaveAccessibleName(/\S/);
  await expect(prompt.getByRole('button', { name: 'Approve' })).toBeVisible();
  const text = await visibleText(page);
  expect(text).not.toMatch(RAW_STATES);
  expect(text).not.toMatch(/\{\s*"[^"]+"\s*:/); // a JSON object
  await expect(card(page, 'getOrder').getByTestId('tool-state')).toHaveText('Done');
  for (const element of await page.locator('[data-testid="tool-call"]').all()) await fits(element, page);
  await screenshot(page, 'components-cards');
});

test('an approval with the keyboard: Tab reaches Approve, Enter approves, the card says Done', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  const approve = refund.getByRole('button', { name: 'Approve' });
  await approve.focus();
  await expect(approve).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(refund.getByTestId('tool-state')).toHaveText('Done');
  await expect(refund.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(refund.getByTestId('tool-result')).toContainText('Refund of');
  expect(await visibleText(page)).not.toMatch(RAW_STATES);
});

test("a lazy tool's discovery is a step that opens with the keyboard, then the tool's card", async ({ page }) => {
  await expect(page.getByTestId('discovery-count')).toHaveText(/^0\/\d+ lazy tools discovered$/);
  await sendAndWait(page, 'use trackShipment for TRK-123456');
  const step = page.getByTestId('discovery-step');
  const summary = step.locator('summary').first();
  await expect(summary).toHaveText(/Discovered trackShipment$/);
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(step.locator('.cw-step-body')).toContainText('From its next step on, the model is sent the definition of trackShipment');
  await expect(card(page, 'trackShipment').getByTestId('tool-state')).toHaveText('Done');
  if (!isMobile(page)) await expect(page.getByTestId('discovery-count')).toHaveText(/^1\/\d+ lazy tools discovered$/);
  expect(await lastAnswer(page).evaluate((element) => (element as HTMLElement).innerText)).not.toMatch(RAW_STATES);
});

test('the composer works from the keyboard: Enter sends, Shift+Enter adds a line', async ({ page }) => {
  const field = page.getByLabel('Message', { exact: true });
  await field.fill('first line');
  await field.press('Shift+Enter');
  await field.pressSequentially('second line');
  await expect(field).toHaveValue('first line\nsecond line');
  await field.press('Enter');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.locator('[data-role="user"] .cw-user-text').last()).toHaveText('first line\nsecond line');
  await fits(page.locator('.cw-composer'), page);
});

test('the devtools read at a glance: one headline figure, a labelled chart, tables that fit, compact on a phone', async ({ page }) => {
  await sendAndWait(page, 'use trackShipment for TRK-123456');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await expect(panel).toBeVisible();
  const viewport = page.viewportSize()!;
  const host = page.locator('[data-chatwire-devtools]');
  const hostBox = (await host.boundingBox())!;
  if (isMobile(page)) {
    // A phone: the bottom dock takes about a third of the screen, not half.
    expect(hostBox.height).toBeLessThanOrEqual(viewport.height * 0.36);
  } else {
    // Docked right at 1280: Close stays one line, and the Tools table's columns are not cut.
    const close = panel.getByRole('button', { name: 'Close devtools' });
    const closeBox = (await close.boundingBox())!;
    expect(closeBox.height).toBeLessThan(32);
    expect(closeBox.x + closeBox.width).toBeLessThanOrEqual(hostBox.x + hostBox.width);
    const table = panel.locator('table').first();
    const size = await table.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
    expect(size.scroll).toBeLessThanOrEqual(size.client + 1);
  }
  const headline = panel.getByTestId('savings-conversation');
  await expect(headline).toHaveText(/^Discovery saved [\d,]+ tokens$/);
  await expect(headline).toHaveAttribute('title', /against sending every tool up front/);
  await panel.getByRole('tab', { name: 'Tokens' }).click();
  await expect(panel.locator('figcaption')).toContainText('all up front');
  await expect(panel.locator('figcaption')).toContainText('sent');
  await expect(panel).not.toContainText(/all-eager/i);
  await screenshot(page, 'components-devtools');
});

test('long tool input and output stay inside the card at every width', async ({ page }) => {
  await send(page, `use searchProducts for ${'extraordinarily-long-query-'.repeat(8)}`);
  await expect(page.getByTestId('status')).toHaveText('ready');
  for (const element of await page.locator('[data-testid="tool-call"]').all()) await fits(element, page);
});
