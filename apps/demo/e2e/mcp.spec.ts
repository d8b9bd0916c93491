import type { Page } from '@playwright/test';
import { card, expect, isUncovered, screenshot, send, test } from './fixtures.ts';

/**
 * The demo with its MCP servers connected (filesystem, memory and everything over stdio, as `npm
 * start` runs them): playwright.config.ts serves it on the port after the main demo's.
 */
const mcpDemo = (baseURL: string | undefined) => {
  const url = new URL(baseURL ?? 'http://127.0.0.1:4317');
  url.port = String(Number(url.port) + 1);
  return url.origin;
};

const panelOf = (page: Page) => page.getByTestId('chatwire-devtools');
/** The first number in a text ("14 tools" -> 14, "1,664" -> 1664). */
const number = (text: string | null) => Number(/\d[\d,]*/.exec(text ?? '')?.[0]?.replace(/,/g, '') ?? Number.NaN);

test("the demo's MCP servers appear in the devtools MCP view with their tool counts, and the Tools view groups their tools under them", async ({
  page,
  baseURL,
}) => {
  await page.goto(mcpDemo(baseURL));
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = panelOf(page);
  await expect(panel).toBeVisible();
  await panel.getByRole('tab', { name: 'MCP' }).click();

  const rows = panel.getByTestId('mcp-server-row');
  await expect(rows).toHaveCount(3);
  expect(await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-server')))).toEqual([
    'files',
    'memory',
    'everything',
  ]);
  const counts = new Map<string, number>();
  const tokens = new Map<string, number>();
  for (const server of ['files', 'memory', 'everything']) {
    const row = panel.locator(`[data-testid="mcp-server-row"][data-server="${server}"]`);
    await expect(row).toHaveAttribute('data-state', 'connected');
    await expect(row).toContainText('stdio');
    // The demo marks its servers lazy: nothing discovered yet.
    await expect(row.getByTestId('mcp-discovered')).toHaveText(/^0 of \d+$/);
    const tools = number(await row.getByTestId('mcp-tool-count').textContent());
    expect(tools).toBeGreaterThan(0);
    expect(number(await row.getByTestId('mcp-tokens').textContent())).toBeGreaterThan(tools);
    counts.set(server, tools);
    tokens.set(server, number(await row.getByTestId('mcp-tokens').textContent()));
  }
  // A server described by its Markdown instructions shows them as text: "Everything Server – …", not "# Everything…".
  await expect(panel.locator('[data-testid="mcp-server-row"][data-server="everything"] td').first()).not.toContainText('#');
  await expect(panel.getByTestId('mcp-server-count')).toHaveText('3 MCP servers');
  await screenshot(page, 'devtools-mcp-view', panel);

  // The Tools view: the same counts, each server's tools under its own heading.
  await panel.getByRole('tab', { name: 'Tools' }).click();
  for (const [server, tools] of counts) {
    const heading = panel.locator(`[data-testid="devtools-tool-group"][data-group="${server}"]`);
    // One figure per server: the MCP view's tokens are the Tools view's.
    await expect(heading).toContainText(`${server} (MCP server) · ${tools} tools · ${tokens.get(server)!.toLocaleString('en-US')} tokens`);
    await expect(panel.locator(`[data-testid="devtools-tool-row"][data-group="${server}"]`)).toHaveCount(tools);
  }
  await expect(panel.locator('[data-testid="devtools-tool-row"][data-tool="files__read_text_file"]')).toHaveAttribute(
    'data-status',
    'undiscovered',
  );

  // Discovering one tool by name shows in both views.
  await send(page, 'use everything__echo with message: hello from the e2e test');
  await expect(card(page, 'everything__echo')).toHaveAttribute('data-outcome', 'done');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(panel.locator('[data-testid="devtools-tool-row"][data-tool="everything__echo"]')).toHaveAttribute(
    'data-status',
    'discovered',
  );
  await panel.getByRole('tab', { name: 'MCP' }).click();
  await expect(panel.locator('[data-testid="mcp-server-row"][data-server="everything"]').getByTestId('mcp-discovered')).toHaveText(
    `1 of ${counts.get('everything')}`,
  );
  // The Timeline lists each server's connection and first listing.
  await panel.getByRole('tab', { name: 'Timeline' }).click();
  await expect(panel.locator('[data-testid="timeline-mcp-row"][data-kind="state"]')).toHaveCount(3);
  await expect(panel.locator('[data-testid="timeline-mcp-row"][data-kind="tools"]')).toHaveCount(3);
});

test("a long-running MCP tool's progress shows on its card while it runs", async ({ page, baseURL }) => {
  await page.goto(mcpDemo(baseURL));
  await send(page, 'use everything__trigger-long-running-operation {"duration": 4, "steps": 4}');
  const running = card(page, 'everything__trigger-long-running-operation');
  const progress = running.getByTestId('tool-progress');
  // The server reports each step; the card shows the latest while the call runs.
  await expect(progress).toBeVisible();
  await expect(progress).toHaveText(/^[1-4] of 4 \(\d+%\)/);
  await expect(running).toHaveAttribute('data-state', 'executing');
  await progress.scrollIntoViewIfNeeded();
  expect(await isUncovered(progress)).toBe(true);
  const bar = progress.locator('progress');
  await expect(bar).toHaveAttribute('max', '4');
  await screenshot(page, 'mcp-tool-progress');
  await expect(running).toHaveAttribute('data-outcome', 'done', { timeout: 20_000 });
  await expect(progress).toHaveCount(0);
});
