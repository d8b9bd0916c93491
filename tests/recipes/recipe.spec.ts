import { expect, test, type Page } from '@playwright/test';

// One recipe (RECIPE_LABEL) at RECIPE_URL: the page of examples/<recipe>/…/Chat.tsx against that recipe's server.

const label = process.env['RECIPE_LABEL'] ?? 'recipe';

async function send(page: Page, text: string) {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

let problems: string[] = [];

test.beforeEach(async ({ page }) => {
  problems = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto('/');
  await expect(page.getByLabel('Message')).toBeVisible();
});

test.afterEach(() => {
  expect(problems).toEqual([]);
});

test(`${label}: a streamed answer, a lazy server tool after its discovery step, a browser tool after Approve, Deny`, async ({ page }) => {
  const status = page.getByTestId('status');
  await send(page, 'hello from the recipe');
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('You said: "hello from the recipe"');
  await expect(status).toHaveText('ready');

  // getWeather is lazy: the model discovers it first, a step of the answer (never the discovery tool's raw name).
  await send(page, 'use getWeather for Paris');
  await expect(page.getByText('Tools found')).toBeVisible();
  await expect(page.getByText('getWeather: done')).toBeVisible();
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('getWeather returned city Paris and celsius 21');
  await expect(page.getByText('__lazy__tool__discovery__')).toHaveCount(0);

  // setTheme asks first: the page says it waits (not "working…"), Approve runs it.
  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
  await send(page, 'use setTheme dark');
  await expect(status).toHaveText('waiting for your approval');
  await expect(page.getByText('working…')).toHaveCount(0);
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('setTheme: done')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(status).toHaveText('ready');

  // Deny: it does not run, and says so.
  await send(page, 'use setTheme light');
  await page.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByText('setTheme: declined')).toBeVisible();
  await expect(status).toHaveText('ready');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
