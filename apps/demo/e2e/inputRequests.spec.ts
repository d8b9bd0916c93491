import { card, expect, lastAnswer, screenshot, sendAndWait, test } from './fixtures.ts';

test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

/** The booking form the demo's bookTable tool asks for. */
const form = (page: import('@playwright/test').Page) => page.getByTestId('input-request').last();

test('a server tool asks for input: a form from its schema, filled with the keyboard, and the call goes on with the answer', async ({
  page,
}) => {
  await sendAndWait(page, 'book a table at Luigi');
  const request = form(page);
  await expect(request).toHaveAttribute('data-status', 'pending');
  await expect(request).toContainText('Booking a table at Luigi: how many people, and when?');
  // The call waits on the server, shown as running.
  await expect(card(page, 'bookTable')).toHaveAttribute('data-state', 'executing');
  // Labels come from the schema's titles, descriptions describe their fields; focus lands on the first field.
  const party = request.getByLabel('Party size');
  await expect(party).toBeFocused();
  await expect(party).toHaveAttribute('type', 'number');
  await expect(party).toHaveAccessibleDescription('How many people, 1 to 12.');
  await expect(request.getByLabel('Time')).toHaveJSProperty('tagName', 'SELECT');
  await expect(request.getByLabel('Seating').locator('option')).toHaveText(['None', 'Inside', 'On the terrace']);
  await expect(request.getByLabel('High chair needed')).toHaveAttribute('type', 'checkbox');
  await expect(request.getByLabel('Name for the booking')).toHaveAttribute('required', '');
  // Nothing overflows the column at 390 px either.
  const box = await request.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  await screenshot(page, 'input-request-form', request);

  // Fill it in with the keyboard only.
  await page.keyboard.type('4');
  await page.keyboard.press('Tab');
  await request.getByLabel('Time').selectOption('19:30');
  await request.getByLabel('Seating').selectOption({ label: 'On the terrace' });
  await request.getByLabel('Name for the booking').fill('Ada');
  await request.getByLabel('High chair needed').focus();
  await page.keyboard.press('Space');
  await request.getByLabel('Notes').fill('<b>window</b> please');
  await request.getByLabel('Notes').press('Enter');

  const bookTable = card(page, 'bookTable');
  await expect(bookTable).toHaveAttribute('data-state', 'output-available');
  await expect(bookTable.getByTestId('tool-result')).toContainText('Ada');
  await expect(request).toHaveAttribute('data-status', 'accepted');
  await expect(request.getByTestId('input-request-outcome')).toContainText('Party size 4');
  await expect(request.getByTestId('input-request-outcome')).toContainText('Seating terrace');
  // Text stays text: no element was made from what was typed.
  await expect(page.locator('.input-request b')).toHaveCount(0);
  await expect(lastAnswer(page)).toContainText('bookTable returned');
  await expect(page.getByTestId('status')).toHaveText('ready');
});

test('decline and cancel reach the tool, and the chat goes on', async ({ page }) => {
  await sendAndWait(page, 'book a table');
  await form(page).getByRole('button', { name: 'Decline' }).click();
  await expect(form(page)).toHaveAttribute('data-status', 'declined');
  await expect(card(page, 'bookTable').getByTestId('tool-result')).toContainText('declined');
  await expect(page.getByTestId('status')).toHaveText('ready');

  await sendAndWait(page, 'book a table');
  await form(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(form(page)).toHaveAttribute('data-status', 'cancelled');
  await expect(card(page, 'bookTable').last()).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('status')).toHaveText('ready');
});

test('devtools: the pending request and its answer in the Timeline', async ({ page }) => {
  const openTimeline = async () => {
    await page.getByRole('button', { name: 'Chatwire devtools' }).click();
    const panel = page.getByTestId('chatwire-devtools');
    await panel.getByRole('tab', { name: 'Timeline' }).click();
    return panel.locator('[data-testid="timeline-row"][data-tool="bookTable"]').getByTestId('timeline-input-request');
  };
  await sendAndWait(page, 'book a table');
  let asked = await openTimeline();
  await expect(asked).toHaveAttribute('data-status', 'pending');
  await expect(asked).toContainText('asked “Booking a table at Chez Chatwire: how many people, and when?”: waiting for the user');
  await page.getByTestId('chatwire-devtools').getByRole('button', { name: 'Close devtools' }).click();

  await form(page).getByRole('button', { name: 'Decline' }).click();
  await expect(form(page)).toHaveAttribute('data-status', 'declined');
  asked = await openTimeline();
  await expect(asked).toHaveAttribute('data-status', 'declined');
  await expect(asked).toContainText(': declined');
});
