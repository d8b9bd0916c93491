import type { FrameLocator, Locator, Page } from '@playwright/test';
import { card, expect, expectConsole, isMobile, send, test } from './fixtures.ts';

/**
 * MCP Apps in the demo with its MCP servers connected (playwright.config.ts serves it on the port
 * after the main demo's): the MCP Apps SDK's example servers from npm (basic: React, a get-time tool
 * with Get Server Time, Send Message, Send Log and Open Link; budget: the budget allocator) over
 * stdio, and the fixture (packages/mcp/tests/fixtures/appServer.mjs) over HTTP, whose apps misbehave
 * on purpose.
 */
const mcpDemo = (baseURL: string | undefined) => {
  const url = new URL(baseURL ?? 'http://127.0.0.1:4317');
  url.port = String(Number(url.port) + 1);
  return url.origin;
};

/** The last card of the model's call of `tool` (not one its app made). */
const modelCard = (page: Page, tool: string) =>
  page.locator(`[data-testid="tool-call"][data-tool="${tool}"]:not([data-called-by="app"])`).last();
/** The app in the model's last call of a tool, and the document in its frame. */
const appOf = (page: Page, tool: string): { view: Locator; frame: FrameLocator } => {
  const view = modelCard(page, tool).getByTestId('mcp-app');
  return { view, frame: view.locator('iframe').contentFrame() };
};
/** The last card of an app's own call of `tool`. */
const appCallCard = (page: Page, tool: string) =>
  page.locator(`[data-testid="tool-call"][data-tool="${tool}"][data-called-by="app"]`).last();
const approve = (target: Locator) => target.getByRole('button', { name: 'Approve' }).click();

test.beforeEach(async ({ page, baseURL }) => {
  await page.goto(mcpDemo(baseURL));
});

test('basic (npm): the app renders with the tool’s result; its button calls the tool through the host, asking first; Send Message adds a user message', async ({
  page,
}) => {
  // The React app mounts under StrictMode (twice): the bridge says so as a warning.
  expectConsole(/AppBridge received a second ui\/initialize/);
  await send(page, 'use basic__get-time');
  // An untrusted server's tool without annotations asks before it runs.
  await approve(card(page, 'basic__get-time'));
  const { view, frame } = appOf(page, 'basic__get-time');
  await expect(view).toHaveAttribute('data-app-state', 'ready');
  const time = frame.locator('code');
  await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  const first = await time.textContent();
  await expect(page.getByTestId('status')).toHaveText('ready');
  // The picture in docs/mcp.md: the card with the app in it.
  if (!isMobile(page)) await modelCard(page, 'basic__get-time').screenshot({ path: 'docs/images/mcp-app.png' });

  // Get Server Time: the app's own call goes through the chat, and asks like the model's.
  await frame.getByRole('button', { name: 'Get Server Time' }).click();
  const asked = appCallCard(page, 'basic__get-time');
  await expect(asked).toHaveAttribute('data-state', 'approval-requested');
  await approve(asked);
  await expect(asked).toHaveAttribute('data-outcome', 'done');
  await expect(time).not.toHaveText(first ?? '');
  await expect(time).toHaveText(/^\d{4}-\d{2}-\d{2}T/);

  // Send Message: the app's text becomes the user's next message, and the model answers it.
  await expect(page.getByTestId('status')).toHaveText('ready');
  await frame.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.locator('[data-role="user"]').last()).toContainText('This is message text.');
  await expect(page.getByTestId('status')).toHaveText('ready');
});

test('basic (npm): Open Link opens nothing until the user clicks Open link', async ({ page, context }) => {
  expectConsole(/AppBridge received a second ui\/initialize/);
  // The link's site is not reachable from here: whatever opens it gets a stand-in page.
  await context.route('https://modelcontextprotocol.io/**', (route) => route.fulfill({ contentType: 'text/html', body: '<p>docs</p>' }));
  let opened = 0;
  context.on('page', () => opened++);
  await send(page, 'use basic__get-time');
  await approve(card(page, 'basic__get-time'));
  const { view, frame } = appOf(page, 'basic__get-time');
  await expect(view).toHaveAttribute('data-app-state', 'ready');

  await frame.getByRole('button', { name: 'Open Link' }).click();
  const prompt = view.getByTestId('mcp-app-link');
  await expect(prompt).toContainText('https://modelcontextprotocol.io/');
  await prompt.getByRole('button', { name: 'Cancel' }).click();
  await expect(prompt).toHaveCount(0);
  expect(opened).toBe(0);

  await frame.getByRole('button', { name: 'Open Link' }).click();
  const popup = context.waitForEvent('page');
  await view.getByTestId('mcp-app-link').getByRole('button', { name: 'Open link' }).click();
  expect((await popup).url()).toBe('https://modelcontextprotocol.io/');
  expect(opened).toBe(1);
});

test('budget (npm): the budget allocator renders its result', async ({ page }) => {
  await send(page, 'use budget__get-budget-data');
  const { view, frame } = appOf(page, 'budget__get-budget-data');
  await expect(view).toHaveAttribute('data-app-state', 'ready');
  await expect(frame.getByRole('heading', { name: 'Budget Allocator' })).toBeVisible();
  await expect(card(page, 'budget__get-budget-data')).toHaveAttribute('data-outcome', 'done');
});

test('fixture: arguments and result reach the app; an app-only tool runs for the app and never for the model; a destructive call asks; a lazy tool not discovered is refused', async ({
  page,
  baseURL,
}) => {
  await send(page, 'use fixture__show_clock with zone: Europe/Paris');
  const { view, frame } = appOf(page, 'fixture__show_clock');
  await expect(view).toHaveAttribute('data-app-state', 'ready');
  await expect(frame.locator('#input')).toHaveText('{"zone":"Europe/Paris"}');
  await expect(frame.locator('#result')).toHaveText('It is 12:00 in Europe/Paris');
  await expect(page.getByTestId('status')).toHaveText('ready');

  // The app-only tool: not in the catalog, so the model cannot even name it; the app can call it.
  const catalog = (await (await page.request.get(`${mcpDemo(baseURL)}/api/tools`)).json()) as { tools: { name: string }[] };
  expect(catalog.tools.map((tool) => tool.name)).toContain('fixture__show_clock');
  expect(catalog.tools.map((tool) => tool.name)).not.toContain('fixture__app_refresh');
  // (The fixture counts its calls across the tests that share it: refreshed 1, 2...)
  await frame.getByRole('button', { name: 'Refresh' }).click();
  await expect(frame.locator('#outcome')).toHaveText(/^ok: refreshed \d+$/);
  await expect(appCallCard(page, 'fixture__app_refresh')).toHaveAttribute('data-outcome', 'done');

  // A destructive tool from the app asks first; the app waits for the answer.
  await frame.getByRole('button', { name: 'Delete note' }).click();
  const asked = appCallCard(page, 'fixture__delete_note');
  await expect(asked).toHaveAttribute('data-state', 'approval-requested');
  await expect(frame.locator('#outcome')).toHaveText(/^ok: refreshed \d+$/);
  await approve(asked);
  await expect(frame.locator('#outcome')).toHaveText('ok: deleted groceries');

  // The model, told to use the app-only tool, cannot: it answers in text and no call is made.
  await send(page, 'use fixture__app_refresh');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.locator('[data-testid="tool-call"][data-tool="fixture__app_refresh"]:not([data-called-by="app"])')).toHaveCount(0);
});

test('fixture (lazy, as tides): a lazy tool the model has not discovered is refused to the app, and not loaded by its call', async ({
  page,
}) => {
  // The model's call of tides__show_clock discovers that tool only; tides__lazy_lookup stays undiscovered.
  await send(page, 'use tides__show_clock');
  const { view, frame } = appOf(page, 'tides__show_clock');
  await expect(view).toHaveAttribute('data-app-state', 'ready');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await frame.getByRole('button', { name: 'Look up' }).click();
  await expect(frame.locator('#outcome')).toHaveText(
    /^error: 'tides__lazy_lookup' is a lazy tool the model has not discovered in this chat/,
  );
  await expect(appCallCard(page, 'tides__lazy_lookup')).toHaveAttribute('data-outcome', 'failed');
});

test('fixture: the app adds a user message, keeps model context for the next request, and opens no link without the user', async ({
  page,
  context,
}) => {
  let opened = 0;
  context.on('page', () => opened++);
  await send(page, 'use fixture__show_clock');
  const { view, frame } = appOf(page, 'fixture__show_clock');
  await expect(view).toHaveAttribute('data-app-state', 'ready');
  await expect(page.getByTestId('status')).toHaveText('ready');

  await frame.getByRole('button', { name: 'Remember' }).click();
  await expect(frame.locator('#outcome')).toHaveText('ok');
  const request = page.waitForRequest((candidate) => candidate.url().endsWith('/api/chat') && candidate.method() === 'POST');
  await frame.getByRole('button', { name: 'Send message' }).click();
  const body = (await request).postDataJSON() as {
    messages: { role: string; content: unknown }[];
    context: { description: string; value: string }[];
  };
  expect(JSON.stringify(body.messages.at(-1)?.content)).toContain('Hello from the fixture app');
  expect(body.context).toContainEqual({
    description: expect.stringContaining('MCP app of fixture/show_clock') as unknown as string,
    value: '{"alarm":"07:00"}',
  });
  await expect(page.locator('[data-role="user"]').last()).toContainText('Hello from the fixture app');
  await expect(page.getByTestId('status')).toHaveText('ready');

  await frame.getByRole('button', { name: 'Open link' }).click();
  await expect(view.getByTestId('mcp-app-link')).toContainText('https://example.com/fixture-docs');
  await view.getByTestId('mcp-app-link').getByRole('button', { name: 'Cancel' }).click();
  await expect(frame.locator('#outcome')).toHaveText('refused');
  expect(opened).toBe(0);
});

test('devtools: the Apps tab lists the turn’s app with its resource, size and CSP; the Timeline lists the bridge’s messages', async ({
  page,
}) => {
  expectConsole(/Content Security Policy/);
  await send(page, 'use fixture__show_wide_csp');
  const { view } = appOf(page, 'fixture__show_wide_csp');
  await expect(view).toHaveAttribute('data-app-state', 'ready');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await panel.getByRole('tab', { name: 'Apps' }).click();
  const row = panel.getByTestId('devtools-mcp-app');
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute('data-server', 'fixture');
  await expect(row).toContainText('ui://fixture/wide.html');
  await expect(panel.getByTestId('devtools-mcp-app-refused')).toHaveCount(2);
  await expect(panel.locator('[data-testid="devtools-mcp-app-csp"][data-field="connectDomains"]')).toContainText('https://api.example.com');

  await panel.getByRole('tab', { name: 'Timeline' }).click();
  await expect(panel.locator('[data-testid="timeline-app-message"][data-method="ui/initialize"][data-direction="in"]')).toHaveCount(1);
  await expect(
    panel.locator('[data-testid="timeline-app-message"][data-method="ui/notifications/tool-result"][data-direction="out"]'),
  ).toHaveCount(1);
});

test.describe('bad input', () => {
  test('an app reaching for the parent, the page’s cookies and storage, the top page and a popup gets nothing', async ({ page }) => {
    // Chromium reports the blocked navigation and popup on the console.
    expectConsole(/sandboxed|Unsafe attempt to initiate navigation|allow-popups|allow-top-navigation/i);
    await page.evaluate(() => {
      document.cookie = 'session=page-secret';
      localStorage.setItem('page-secret', 'kept');
    });
    const url = page.url();
    await send(page, 'use fixture__show_escape');
    const { view, frame } = appOf(page, 'fixture__show_escape');
    await expect(view).toHaveAttribute('data-app-state', 'ready');
    for (const id of ['parent', 'top', 'cookie', 'storage', 'popup']) await expect(frame.locator(`#${id}`)).toHaveText(/^blocked/);
    // The page stayed where it was (the demo itself puts the thread in the address).
    expect(new URL(page.url()).origin + new URL(page.url()).pathname).toBe(new URL(url).origin + new URL(url).pathname);
    // (innerText: the app's own source, in the frame's srcdoc attribute, says 'taken over' too.)
    expect(
      await page.evaluate(() => [document.body.innerText.includes('taken over'), localStorage.getItem('stolen'), document.cookie]),
    ).toEqual([false, null, 'session=page-secret']);
  });

  test('an app posting 10,000 messages a second is read 100 a second, stopped, and the page keeps drawing', async ({ page }) => {
    // Frames the page draws from the send on (a frozen page draws none).
    await page.evaluate(() => {
      const counter = window as unknown as { framesDrawn: number };
      counter.framesDrawn = 0;
      const tick = () => {
        counter.framesDrawn++;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const sentAt = Date.now();
    await send(page, 'use fixture__show_flood');
    const { view } = appOf(page, 'fixture__show_flood');
    await expect(view).toHaveAttribute('data-app-state', 'stopped');
    // The flood lasted at most this long (less: the send, the model and the app's start come first).
    const seconds = Math.ceil((Date.now() - sentAt) / 1_000);
    await expect(view.getByTestId('mcp-app-stopped')).toHaveText('The app sent too many messages and was stopped.');
    const received = Number(await view.getAttribute('data-received'));
    const dropped = Number(await view.getAttribute('data-dropped'));
    // Its handshake and at most 100 of its messages a second (101 when it floods within its first
    // second, as on an idle machine; more seconds when a loaded one spreads its bursts out); at least
    // 1,000 dropped unread. The exact per-second bound is FrameTransport's unit test's (a fake clock).
    expect(received).toBeLessThanOrEqual(1 + 100 * seconds);
    expect(dropped).toBeGreaterThanOrEqual(1_000);
    const frames = await page.evaluate(() => (window as unknown as { framesDrawn: number }).framesDrawn);
    expect(frames).toBeGreaterThan(10);
    // The chat goes on.
    await expect(page.getByTestId('status')).toHaveText('ready');
    await send(page, 'use fixture__show_clock');
    await expect(appOf(page, 'fixture__show_clock').view).toHaveAttribute('data-app-state', 'ready');
  });

  test('an app that never answers initialize is stopped, and its card shows the result', async ({ page }) => {
    await send(page, 'use fixture__show_hang');
    const hung = card(page, 'fixture__show_hang');
    await expect(hung.getByTestId('mcp-app-stopped')).toHaveText('The app did not start: it never finished its handshake with the page.', {
      timeout: 20_000,
    });
    await expect(hung).toHaveAttribute('data-outcome', 'done');
    await expect(hung.getByTestId('tool-result')).toBeVisible();
    await expect(hung.getByTestId('mcp-app-frame')).toBeHidden();
  });

  test("an app asking for '*' in its CSP is refused it: its frame reaches no other origin", async ({ page }) => {
    expectConsole(/Content Security Policy/);
    await send(page, 'use fixture__show_wide_csp');
    const { view, frame } = appOf(page, 'fixture__show_wide_csp');
    await expect(view).toHaveAttribute('data-app-state', 'ready');
    const refused = view.getByTestId('mcp-app-csp-refused');
    await expect(refused).toContainText('2 origins the app asked for were refused');
    await refused.locator('summary').click();
    await expect(refused).toContainText("'*' would allow every origin");
    await expect(frame.locator('#policy')).toContainText('connect-src https://api.example.com;');
    await expect(frame.locator('#policy')).not.toContainText('*');
    await expect(frame.locator('#fetch')).toHaveText('blocked by connect-src');
  });

  test('a 20 MB ui:// resource, and one another server serves, are refused with the reason on the card', async ({ page }) => {
    await send(page, 'use fixture__show_huge');
    await expect(card(page, 'fixture__show_huge').getByTestId('mcp-app-error')).toHaveText(
      'The app from fixture cannot be shown: ui://fixture/huge.html is 20.0 MB, over the 5.0 MB an app may weigh (maxAppBytes)',
    );
    await expect(page.getByTestId('status')).toHaveText('ready');
    await send(page, 'use fixture__show_borrowed');
    await expect(card(page, 'fixture__show_borrowed').getByTestId('mcp-app-error')).toContainText(
      'ui://weather/clock.html could not be read',
    );
    await expect(card(page, 'fixture__show_borrowed').getByTestId('mcp-app-error')).toContainText('Resource not found');
  });
});
