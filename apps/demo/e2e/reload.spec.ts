import { card, expect, isMobile, lastAnswer, screenshot, send, sendAndWait, test } from './fixtures.ts';

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

test("after a reload the devtools show the thread's earlier turns, with the same discovery figures", async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  // A lazy tool (discovered first, then run in the page) and an eager one.
  await sendAndWait(page, 'use addTodo for buy oat milk');
  await sendAndWait(page, 'use getWeather for Paris');
  await panel.getByRole('tab', { name: 'Tokens' }).click();
  const turnOptions = panel.getByLabel('Turn', { exact: true }).locator('option');
  await expect(turnOptions).toHaveText(['1', '2 (latest)']);

  /** Every figure of the Tokens tab and the header, with turn 1 (the discovery) selected. */
  const figures = async () => {
    await panel.getByLabel('Turn', { exact: true }).selectOption('1');
    const texts = (testId: string) => panel.getByTestId(testId).evaluateAll((rows) => rows.map((row) => row.textContent));
    return {
      headline: await panel.getByTestId('savings-conversation').textContent(),
      net: await panel.getByTestId('savings-conversation').getAttribute('data-net'),
      conversation: await texts('tokens-conversation'),
      turns: await texts('tokens-turn-row'),
      calls: await texts('tokens-call-row'),
    };
  };
  // The panel refreshes a few times a second: read until two reads in a row agree.
  let before = await figures();
  await expect
    .poll(async () => {
      const [first, second] = [await figures(), await figures()];
      before = second;
      return JSON.stringify(first) === JSON.stringify(second);
    })
    .toBe(true);
  expect(before.calls.some((row) => row?.includes('addTodo'))).toBe(true);
  expect(before.calls.length).toBeGreaterThanOrEqual(2);

  await page.reload();
  await expect(panel).toBeVisible();
  await expect(page.locator('[data-role]')).toHaveCount(4);
  await panel.getByRole('tab', { name: 'Tokens' }).click();
  await expect(turnOptions).toHaveText(['1', '2 (latest)']);
  await expect.poll(async () => JSON.stringify(await figures())).toBe(JSON.stringify(before));
  await screenshot(page, 'devtools-after-reload');
});
