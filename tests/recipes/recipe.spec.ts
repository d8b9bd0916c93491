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

test(`${label}: a streamed answer, a server tool and a browser tool`, async ({ page }) => {
  await send(page, 'hello from the recipe');
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('You said: "hello from the recipe"');
  await expect(page.getByTestId('status')).toHaveText('ready');

  await send(page, 'use getWeather for Paris');
  await expect(page.getByText('getWeather: done')).toBeVisible();
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('getWeather returned city Paris and celsius 21');

  await expect(page.locator('html')).not.toHaveAttribute('data-theme', 'dark');
  await send(page, 'use setTheme dark');
  await expect(page.getByText('setTheme: done')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.getByTestId('status')).toHaveText('ready');
});
