import { expect, test } from '@playwright/test';
import { collectProblems, send, settledFigures, stateOf, toolCalls } from './appPage.ts';

// examples/full at RECIPE_URL on `vite` (dev): the README's app with the MCP servers of its mcp.json (server-memory and
// server-filesystem over stdio), threads in PGlite with the thread list, grants, the devtools panel and @chatwire/ui.
// Started by scripts/recipes.mjs once the example is installed from the tarballs.

let problems: string[] = [];

test.beforeEach(({ page }) => {
  problems = collectProblems(page);
});

test.afterEach(() => {
  expect(problems).toEqual([]);
});

test.describe('at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a lazy tool, an MCP tool, an approval and a grant; a reload keeps the thread and the devtools turns; the thread list', async ({
    page,
  }) => {
    test.setTimeout(120_000); // fourteen turns, a reload and a dev server compiling on first load, on a busy 2-core machine
    const status = page.getByTestId('status');
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Chat' })).toBeVisible();
    await page.getByRole('button', { name: 'Chatwire devtools' }).click();
    const panel = page.getByTestId('chatwire-devtools');
    await expect(panel).toBeVisible();
    // The docked panel never narrows the page below the 768 px its layout needs.
    expect(await page.locator('.app').evaluate((element) => element.clientWidth)).toBeGreaterThanOrEqual(768);

    // A lazy tool of the app's own: discovered first (a step of the answer), then run on the server.
    await send(page, 'use getWeather for Paris');
    // The first request starts the MCP servers and opens the PGlite folder (creating the database the first time):
    // about 10 s on the shared 2-core machine.
    await expect(stateOf(toolCalls(page, 'getWeather'))).toHaveText('Done', { timeout: 45_000 });
    await expect(page.getByTestId('discovery-step').locator('summary').first()).toHaveText(/Discovered getWeather$/);
    await expect(status).toHaveText('ready');
    // The server has the thread now: the address names it.
    await expect(page).toHaveURL(/\?thread=[\w-]+$/);
    const threadId = new URL(page.url()).searchParams.get('thread')!;

    // An MCP server's tool (server-memory over stdio, started by this first use).
    await send(page, 'use memory__read_graph');
    await expect(stateOf(toolCalls(page, 'memory__read_graph'))).toHaveText('Done');
    await expect(status).toHaveText('ready');

    // A browser tool that asks first: the page says it waits, Approve runs it in the page.
    await send(page, 'use setTheme dark');
    const theme = toolCalls(page, 'setTheme');
    await expect(stateOf(theme)).toHaveText('Waiting for your approval');
    await expect(status).toHaveText('waiting for approval');
    await theme.getByRole('button', { name: 'Approve' }).click();
    await expect(stateOf(theme)).toHaveText('Done');
    await expect(page.locator('.app')).toHaveAttribute('data-theme', 'dark');
    await expect(status).toHaveText('ready');

    // A grant: server-memory says delete_entities is destructive, so it asks; "Allow for this chat" runs it and
    // keeps a grant (stored with the thread in PGlite), so the next call in this chat runs without asking.
    await send(page, 'use memory__delete_entities');
    const deletes = toolCalls(page, 'memory__delete_entities');
    await expect(stateOf(deletes.first())).toHaveText('Waiting for your approval');
    await deletes.first().getByRole('button', { name: 'Allow for this chat' }).click();
    await expect(stateOf(deletes.first())).toHaveText('Done');
    await expect(page.getByRole('region', { name: 'Grants' })).toContainText('memory__delete_entities is allowed in this chat');
    await send(page, 'use memory__delete_entities');
    await expect(deletes).toHaveCount(2);
    await expect(stateOf(deletes.last())).toHaveText('Done');
    await expect(deletes.last().getByRole('button', { name: 'Approve' })).toHaveCount(0);
    await expect(status).toHaveText('ready');

    // The devtools' Tokens tab: one turn per question.
    await panel.getByRole('tab', { name: 'Tokens' }).click();
    const turnOptions = panel.getByLabel('Turn', { exact: true }).locator('option');
    await expect(turnOptions).toHaveCount(5);
    const before = await settledFigures(panel);
    expect(before).toContain('getWeather');
    const rows = await page.locator('[data-role]').count();
    const address = page.url();

    // A reload: the thread comes back from PGlite (the page reads the theme from it), and the devtools' turns with it.
    await page.reload();
    await expect(page.locator('[data-role]')).toHaveCount(rows);
    expect(page.url()).toBe(address);
    await expect(page.locator('.app')).toHaveAttribute('data-theme', 'dark');
    await expect(stateOf(toolCalls(page, 'memory__read_graph'))).toHaveText('Done');
    await expect(panel).toBeVisible();
    await panel.getByRole('tab', { name: 'Tokens' }).click();
    await expect(turnOptions).toHaveCount(5);
    await expect.poll(() => settledFigures(panel)).toBe(before);

    // The thread list: this chat, under the start of its first message; a new chat; back to the first one.
    const chats = page.getByRole('navigation', { name: 'Chats' });
    const thisChat = chats.locator(`a[href$="?thread=${threadId}"]`);
    await expect(thisChat).toHaveText('use getWeather for Paris');
    await expect(chats.locator('li[aria-current="true"] a')).toHaveAttribute('href', `/?thread=${threadId}`);
    await chats.getByRole('button', { name: 'New chat' }).click();
    await expect(page.locator('[data-role]')).toHaveCount(0);
    await expect(page.locator('.app')).toHaveAttribute('data-theme', 'light');
    await send(page, 'hello from a second chat');
    await expect(page.locator('[data-role="assistant"]').last()).toContainText('You said: "hello from a second chat"');
    // Newest activity first: the new chat heads the list, and is the one shown.
    await expect(chats.locator('li').first()).toHaveText(/^hello from a second chat/);
    await expect(chats.locator('li').first()).toHaveAttribute('aria-current', 'true');
    await thisChat.click();
    await expect(page.locator('[data-role]')).toHaveCount(rows);
    expect(page.url()).toBe(address);
    await expect(page.locator('.app')).toHaveAttribute('data-theme', 'dark');
  });
});

/**
 * The screenshots docs/recipes.md shows: the example after a lazy tool's turn, with an approval waiting, the devtools
 * open where they open by default, on their Tokens tab. Every run saves them under test-results/recipes;
 * DOCS_SCREENSHOTS=1 (`npm run screenshots`) writes docs/images/full-devtools-<width>.png (not every run: the figures
 * move by a few tokens from run to run, and a test run should not leave the docs changed).
 */
for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport, ...(viewport.width < 500 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });

    test('the docs screenshot: the example with the devtools open', async ({ page }, testInfo) => {
      test.setTimeout(60_000);
      await page.goto('/');
      await send(page, 'use getWeather for Paris');
      await expect(stateOf(toolCalls(page, 'getWeather'))).toHaveText('Done');
      await expect(page.getByTestId('status')).toHaveText('ready');
      await send(page, 'use setTheme dark');
      await expect(page.getByTestId('status')).toHaveText('waiting for approval');
      await page.getByRole('button', { name: 'Chatwire devtools' }).click();
      const panel = page.getByTestId('chatwire-devtools');
      // The panel words the chat's status as the page's header does.
      await expect(panel.getByTestId('devtools-status')).toHaveText('waiting for approval');
      // The panel shows the latest of the two turns.
      await expect(panel.getByLabel('Turn', { exact: true })).toHaveValue('2');
      await panel.getByRole('tab', { name: 'Tokens' }).click();
      await expect(panel.getByTestId('tokens-turn-row')).toHaveCount(2);
      await expect(panel.getByTestId('savings-conversation')).toHaveText(/^Discovery (saved|cost) [\d,]+ (more )?tokens$/);
      await settledFigures(panel);
      // The page keeps its whole width beside (or above) the panel, down to the 768 px a docked panel leaves it.
      const appWidth = await page.locator('.app').evaluate((element) => element.clientWidth);
      expect(appWidth).toBeGreaterThanOrEqual(Math.min(768, viewport.width));
      const options = { scale: 'css', animations: 'disabled', caret: 'hide' } as const;
      await page.screenshot({ ...options, path: testInfo.outputPath(`full-devtools-${viewport.width}.png`) });
      if (process.env['DOCS_SCREENSHOTS'] === '1')
        await page.screenshot({ ...options, path: `docs/images/full-devtools-${viewport.width}.png` });
    });
  });
}
