import { card, expect, lastAnswer, screenshot, sendAndWait, test } from './fixtures.ts';

/**
 * Grants, edits and denials as a person uses them, at desktop width and at 390 px. Each test is a
 * fresh chat (its own id), so what one grants "for this chat" never reaches another test.
 */
test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

test('one approval UI per waiting call, on its card; the header says the chat waits for approval', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const refund = card(page, 'refundOrder');
  await expect(page.getByTestId('status')).toHaveText('waiting for approval');
  await expect(page.getByTestId('status')).toHaveAttribute('data-status', 'waiting for approval');
  // Approve, Deny and the server's grant options are the card's, and nowhere else.
  const options = page.getByTestId('approval-options');
  await expect(options).toHaveCount(1);
  await expect(refund.getByTestId('approval-options')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve', exact: true })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Deny', exact: true })).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Allow for this chat' })).toHaveCount(1);
  await expect(page.getByTestId('approvals-panel')).toHaveCount(0);
  await screenshot(page, 'approval-on-card');
  await refund.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(refund).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.getByTestId('approval-options')).toHaveCount(0);
});

test('allow for this chat: the same tool then runs without asking; revoked, it asks again', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const options = page.getByTestId('approval-options');
  await expect(options).toHaveAttribute('data-tool', 'refundOrder');
  await expect(options.getByTestId('allow-thread')).toBeVisible();
  await expect(options.getByTestId('allow-always')).toBeVisible();
  await screenshot(page, 'approval-grant-options');
  await options.getByTestId('allow-thread').click();
  await expect(card(page, 'refundOrder')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('status')).toHaveText('ready');
  const grant = page.getByTestId('grant');
  await expect(grant).toHaveCount(1);
  await expect(grant).toHaveAttribute('data-scope', 'thread');
  await expect(grant).toContainText('Allowed refundOrder (this chat)');

  // The next refund runs at once: no approval is asked.
  await sendAndWait(page, 'use refundOrder for ORD-5678');
  await expect(card(page, 'refundOrder')).toHaveAttribute('data-state', 'output-available');
  await expect(card(page, 'refundOrder').getByTestId('tool-result')).toContainText('ORD-5678');
  await expect(page.getByTestId('approval-options')).toHaveCount(0);
  await expect(lastAnswer(page)).toContainText('refundOrder returned');
  await screenshot(page, 'approval-granted-run');

  // Revoked: the list empties, and the next refund asks again.
  await grant.getByRole('button', { name: /Revoke refundOrder/ }).click();
  await expect(page.getByTestId('grant')).toHaveCount(0);
  await sendAndWait(page, 'use refundOrder for ORD-9999');
  await expect(card(page, 'refundOrder')).toHaveAttribute('data-state', 'approval-requested');
  await expect(page.getByTestId('approval-options')).toBeVisible();
});

test('devtools lists the grant from the server and revokes it; the next call asks again', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  await page.getByTestId('approval-options').getByTestId('allow-thread').click();
  await expect(card(page, 'refundOrder')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('status')).toHaveText('ready');

  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await expect(panel).toBeVisible();
  await panel.getByRole('tab', { name: 'Timeline' }).click();
  const listed = panel.getByTestId('devtools-server-grant');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('allow · this chat');
  await expect(listed).toContainText('refundOrder');
  await screenshot(page, 'devtools-server-grants');
  await listed.getByRole('button', { name: /^Revoke / }).click();
  await expect(panel.getByTestId('devtools-server-grant')).toHaveCount(0);
  await expect(panel.getByTestId('devtools-server-grants-error')).toHaveCount(0);

  await sendAndWait(page, 'use refundOrder for ORD-5678');
  await expect(card(page, 'refundOrder')).toHaveAttribute('data-state', 'approval-requested');
});

test('edit the arguments, then approve: the call runs with the edited input', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  const options = page.getByTestId('approval-options');
  await options.getByTestId('edit-args').click();
  const field = options.getByTestId('edit-args-input');
  await expect(field).toHaveValue(/ORD-1234/);
  // Not JSON: said in the page, nothing sent.
  await field.fill('{ nope');
  await options.getByTestId('approve-edited').click();
  await expect(options.getByRole('alert')).toHaveText('The arguments are not valid JSON.');
  await field.fill('{"orderId":"ORD-4321"}');
  await screenshot(page, 'approval-edit');
  await options.getByTestId('approve-edited').click();
  const refund = card(page, 'refundOrder');
  await expect(refund).toHaveAttribute('data-state', 'output-available');
  await expect(refund.getByTestId('tool-result')).toContainText('ORD-4321');
  await expect(refund.locator('.cw-tool-input')).toContainText('ORD-4321');
  await expect(lastAnswer(page)).toContainText('refundOrder returned');
});

test('deny, then the next message works', async ({ page }) => {
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  await page.getByTestId('approval-options').getByRole('button', { name: 'Deny', exact: true }).click();
  await expect(card(page, 'refundOrder').getByTestId('tool-state')).toHaveText('Declined');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await sendAndWait(page, 'use getWeather for Paris');
  await expect(card(page, 'getWeather')).toHaveAttribute('data-state', 'output-available');
  await expect(lastAnswer(page)).toContainText('getWeather returned city Paris');
});
