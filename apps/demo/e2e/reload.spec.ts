import { card, expect, isMobile, lastAnswer, send, sendAndWait, test } from './fixtures.ts';

// After a reload the demo says what the chat says: browser tools' effects, the Stopped marker, and
// the discovered count in the header and in the devtools.

test('a reload restores the theme, the to-do list and the Stopped marker, and devtools agrees with the header', async ({ page }) => {
  await page.goto('/');
  await sendAndWait(page, 'use setTheme dark');
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'dark');
  await sendAndWait(page, 'use addTodo for buy milk');
  await expect(card(page, 'addTodo')).toContainText('Added to your to-do list: “buy milk”');
  await send(page, 'write a long story');
  await expect(lastAnswer(page)).toContainText('Part 1:');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(lastAnswer(page).getByTestId('stopped-mark')).toBeVisible();

  await page.reload();
  await expect(page.locator('[data-role]')).toHaveCount(6);
  await expect(card(page, 'setTheme')).toContainText('Switched to the dark theme');
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'dark');
  if (isMobile(page)) {
    await expect(page.getByTestId('panel-count')).toHaveText('1');
    await page.getByTestId('panel-toggle').click();
  }
  await expect(page.getByTestId('todos')).toHaveText('buy milk');
  await expect(lastAnswer(page).getByTestId('stopped-mark')).toHaveText('Stopped: this answer was cut off');

  // The header and the devtools count the same discovered tools (addTodo is lazy).
  const header = (await page.getByTestId('discovery-count').textContent()) ?? '';
  const discovered = Number(/^(\d+)\//.exec(header)?.[1]);
  expect(discovered).toBeGreaterThanOrEqual(1);
  if (isMobile(page)) await page.getByRole('complementary', { name: 'Notes and to-do' }).getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await expect(panel.getByTestId('count-discovered')).toHaveText(`${discovered} discovered`);

  // New chat starts over: the page forgets what the old chat did.
  await page
    .getByRole('button', { name: 'Chatwire devtools' })
    .or(panel.getByRole('button', { name: 'Close devtools' }))
    .first()
    .click();
  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(page.locator('[data-role]')).toHaveCount(0);
  await expect(page.getByTestId('app')).toHaveAttribute('data-theme', 'light');
});
