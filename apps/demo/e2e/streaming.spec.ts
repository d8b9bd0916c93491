import { expect, test } from '@playwright/test';

test('types a message and sees the streamed answer', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Message').fill('hello there');
  await page.getByRole('button', { name: 'Send' }).click();

  await expect(page.locator('[data-role="user"]').last()).toHaveText('hello there');
  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText('You said: "hello there"');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('stops a long answer and keeps what arrived', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Message').fill('write a long story');
  await page.getByRole('button', { name: 'Send' }).click();

  const answer = page.locator('[data-role="assistant"]').last();
  await expect(answer).toContainText('Part 1:');
  await expect(page.getByTestId('status')).toHaveText('streaming');
  await page.getByRole('button', { name: 'Stop' }).click();

  await expect(page.getByTestId('status')).toHaveText('ready');
  const kept = (await answer.textContent()) ?? '';
  expect(kept.length).toBeGreaterThan(0);
  expect(kept).not.toContain('Part 12:');

  // The stopped answer must not grow while the next one streams in.
  await page.getByLabel('Message').fill('hello again');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('You said: "hello again"');
  await expect(page.locator('[data-role="assistant"]').first()).toHaveText(kept);
});
