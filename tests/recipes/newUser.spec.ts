import { expect, test } from '@playwright/test';
import { collectProblems, send, settledFigures, stateOf, toolCalls } from './appPage.ts';

// The new user's app at RECIPE_URL on `vite` (dev): a fresh `npm create vite` app with the files of the README, then
// docs/mcp.md and docs/threads.md, as written (scripts/newUserApp.mjs extracts them). Its page is threads.md's
// src/Chat.tsx: @chatwire/ui on a thread the server keeps in PGlite, with the devtools panel.

let problems: string[] = [];

test.beforeEach(({ page }) => {
  problems = collectProblems(page);
});

test.afterEach(() => {
  expect(problems).toEqual([]);
});

test('a lazy tool, an MCP tool and an approval; a reload keeps the conversation and the devtools turns', async ({ page }) => {
  test.setTimeout(90_000); // a dev server compiling on first load, on a busy 2-core machine
  await page.goto('/');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await expect(panel).toBeVisible();
  const lastAnswer = page.locator('[data-role="assistant"]').last();

  // The README's lazy tool: discovered first, then run on the server.
  await send(page, 'use getWeather for Paris');
  // The first request starts the MCP servers and opens the PGlite folder (creating the database the first time):
  // about 10 s on the shared 2-core machine.
  await expect(stateOf(toolCalls(page, 'getWeather'))).toHaveText('Done', { timeout: 45_000 });
  await expect(page.getByTestId('discovery-step').locator('summary').first()).toHaveText(/Discovered getWeather$/);
  await expect(lastAnswer).toContainText('getWeather returned city Paris and celsius 21');
  // Once the thread is stored, the address names it.
  await expect(page).toHaveURL(/\?thread=[\w-]+$/);

  // docs/mcp.md's server-memory.
  await send(page, 'use memory__read_graph');
  await expect(stateOf(toolCalls(page, 'memory__read_graph'))).toHaveText('Done');
  await expect(lastAnswer).toContainText('memory__read_graph returned');

  // The README's browser tool asks first; Approve runs it in the page.
  await send(page, 'use setTheme dark');
  const theme = toolCalls(page, 'setTheme');
  await expect(stateOf(theme)).toHaveText('Waiting for your approval');
  await theme.getByRole('button', { name: 'Approve' }).click();
  await expect(stateOf(theme)).toHaveText('Done');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(lastAnswer).toContainText('setTheme returned');

  await panel.getByRole('tab', { name: 'Tokens' }).click();
  const turnOptions = panel.getByLabel('Turn', { exact: true }).locator('option');
  await expect(turnOptions).toHaveCount(3);
  const before = await settledFigures(panel);
  expect(before).toContain('getWeather');
  const rows = await page.locator('[data-role]').count();
  const address = page.url();

  await page.reload();
  expect(page.url()).toBe(address);
  await expect(page.locator('[data-role]')).toHaveCount(rows);
  await expect(stateOf(toolCalls(page, 'setTheme'))).toHaveText('Done');
  await expect(panel).toBeVisible();
  await panel.getByRole('tab', { name: 'Tokens' }).click();
  await expect(turnOptions).toHaveCount(3);
  await expect.poll(() => settledFigures(panel)).toBe(before);
});
