import type { BrowserContext, Page } from '@playwright/test';
import { card, expect, expectConsole, screenshot, send, test } from './fixtures.ts';

/**
 * Signing in to an MCP server that needs OAuth, in Chromium: the demo served with only that server
 * (`oauth: true`), an SDK v2 MCP server protected by bearer tokens, and the SDK's authorization
 * server, all on loopback and started by the test run (playwright.config.ts). Each project (desktop,
 * phone) uses users of its own, so the two run side by side on the same servers.
 */
/** playwright.config.ts serves them from `E2E_OAUTH_PORT` (the demo, then the authorization server), by default `E2E_PORT` + 3. */
const base = Number(process.env['E2E_OAUTH_PORT'] ?? Number(process.env['E2E_PORT'] ?? 4317) + 3);
const OAUTH_PORTS = { demo: base, as: base + 1 };
const demo = `http://127.0.0.1:${OAUTH_PORTS.demo}`;
const authorizationServer = `http://127.0.0.1:${OAUTH_PORTS.as}`;

/** A browser context whose demo user is `name` (the demo's user switch, a cookie). */
async function asUser(context: BrowserContext, name: string): Promise<void> {
  await context.addCookies([{ name: 'chatwire_demo_user', value: name, url: demo }]);
}

/** Every token the authorization server issued, and what it revoked (its test-only state route). */
async function authorizationState(page: Page): Promise<{ issued: string[]; revoked: string[] }> {
  const response = await page.request.get(`${authorizationServer}/debug/state`);
  return (await response.json()) as { issued: string[]; revoked: string[] };
}

/** The request's user's sign-in state per server, read as the page would. */
async function signIns(page: Page): Promise<Record<string, string>> {
  const list = (await page.evaluate(() => fetch('/api/mcp/servers').then((response) => response.json()))) as {
    servers: { name: string; signIn: string }[];
  };
  return Object.fromEntries(list.servers.map((server) => [server.name, server.signIn]));
}

const linkRequest = (page: Page) => page.getByTestId('link-request').last();
/** A card's call and result as JSON (the card's folded raw JSON; its text is there whether unfolded or not). */
const resultJson = (page: Page, tool: string) => card(page, tool).locator('pre.cw-json');

test('Connect, consent, tokens stay on the server, the tool works, a second user connects separately, Disconnect revokes', async ({
  page,
  context,
  browser,
}, testInfo) => {
  const who = testInfo.project.name;
  await asUser(context, `ann-${who}`);
  // Everything the chat page receives, to check that no token ever reaches it.
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(demo)) bodies.push(response.text().catch(() => ''));
  });
  await page.goto(demo);
  await send(page, 'use secure__sign_in');
  const request = linkRequest(page);
  await expect(request).toHaveAttribute('data-status', 'pending');
  await expect(request).toContainText('Sign in to secure to use its tools.');
  await expect(request).toContainText(`Signs you in at 127.0.0.1:${OAUTH_PORTS.as}`);
  await screenshot(page, 'mcp-connect', request);

  // The authorization page opens only on the click, in a window of its own.
  const popupOpened = context.waitForEvent('page');
  await request.getByRole('button', { name: 'Connect secure' }).click();
  const popup = await popupOpened;
  await popup.waitForURL(`${authorizationServer}/**`);
  await expect(popup.getByRole('heading')).toContainText('Allow Chatwire to read your notes?');
  await popup.getByLabel('Sign in as').fill(`alice-${who}`);
  await popup.getByRole('button', { name: 'Allow' }).click();
  // Back at the demo's callback: the page says so, and tells the chat page, which answers the request.
  await popup.waitForURL(`${demo}/api/mcp/callback**`);
  await expect(popup.getByRole('heading')).toHaveText('Signed in to secure');

  await expect(request).toHaveAttribute('data-status', 'accepted');
  await expect(request).toContainText('Connected to secure.');
  await expect(card(page, 'secure__sign_in')).toHaveAttribute('data-state', 'output-available');
  await expect(page.getByTestId('status')).toHaveText('ready');
  expect(await signIns(page)).toEqual({ secure: 'connected' });

  // The server's tool, with this user's tokens.
  await send(page, 'use secure__whoami');
  const whoami = card(page, 'secure__whoami');
  await expect(whoami).toHaveAttribute('data-state', 'output-available');
  await expect(resultJson(page, 'secure__whoami')).toContainText(`signed in as alice-${who}`);
  await expect(page.getByTestId('status')).toHaveText('ready');

  // No token the authorization server issued ever reached the page.
  const { issued } = await authorizationState(page);
  const seen = (await Promise.all(bodies)).join('\n');
  expect(issued.length).toBeGreaterThan(0);
  expect(issued.filter((token) => seen.includes(token))).toEqual([]);

  // A second user has to connect on their own.
  const other = await browser.newContext();
  try {
    await asUser(other, `bob-${who}`);
    const bob = await other.newPage();
    await bob.goto(demo);
    expect(await signIns(bob)).toEqual({ secure: 'needs-sign-in' });
    await send(bob, 'use secure__sign_in');
    await expect(linkRequest(bob)).toContainText('Sign in to secure to use its tools.');
    await expect(linkRequest(bob).getByRole('button', { name: 'Connect secure' })).toBeVisible();
  } finally {
    await other.close();
  }

  // Disconnect: the tokens are revoked at the authorization server and deleted here.
  const before = (await authorizationState(page)).revoked.length;
  const disconnected = await page.evaluate(() =>
    fetch('/api/mcp/servers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ disconnect: 'secure' }),
    }).then((response) => response.json()),
  );
  expect(disconnected).toEqual({ disconnected: 'secure', revoked: true });
  expect((await authorizationState(page)).revoked.length).toBe(before + 2);
  expect(await signIns(page)).toEqual({ secure: 'needs-sign-in' });
});

test('two elicitations from two calls to one server at once, answered in the browser, each reach their own call', async ({
  page,
  context,
}, testInfo) => {
  const who = testInfo.project.name;
  await asUser(context, `carol-${who}`);
  await page.goto(demo);
  // Sign in first (the same flow as above).
  await send(page, 'use secure__sign_in');
  const popupOpened = context.waitForEvent('page');
  await linkRequest(page).getByRole('button', { name: 'Connect secure' }).click();
  const popup = await popupOpened;
  await popup.getByRole('button', { name: 'Allow' }).click();
  await expect(linkRequest(page)).toHaveAttribute('data-status', 'accepted');
  await expect(page.getByTestId('status')).toHaveText('ready');

  // Two chats of this user, each calling `ask` on the same server: both calls wait on it at once.
  const second = await context.newPage();
  await second.goto(demo);
  await second.getByRole('button', { name: 'New chat' }).click();
  await send(page, 'use secure__ask with label: first');
  await send(second, 'use secure__ask with label: second');
  const firstForm = page.getByTestId('input-request').last();
  const secondForm = second.getByTestId('input-request').last();
  await expect(firstForm).toContainText('Question for first');
  await expect(secondForm).toContainText('Question for second');
  await expect(card(page, 'secure__ask')).toHaveAttribute('data-state', 'executing');
  await expect(card(second, 'secure__ask')).toHaveAttribute('data-state', 'executing');

  // Answered in the other order: each answer reaches its own call.
  await secondForm.getByLabel('Answer').fill('from the second page');
  await secondForm.getByRole('button', { name: 'Submit' }).click();
  await expect(resultJson(second, 'secure__ask')).toContainText('answer for second: from the second page');
  await expect(card(page, 'secure__ask')).toHaveAttribute('data-state', 'executing');
  await firstForm.getByLabel('Answer').fill('from the first page');
  await firstForm.getByRole('button', { name: 'Submit' }).click();
  await expect(resultJson(page, 'secure__ask')).toContainText('answer for first: from the first page');
  await expect(resultJson(page, 'secure__ask')).not.toContainText('second');
  await screenshot(page, 'mcp-two-elicitations');
});

test("the user's resources attach from the composer's picker, an oversized one says why, and a prompt is a slash command with its form", async ({
  page,
  context,
}, testInfo) => {
  const who = testInfo.project.name;
  // The oversized read is refused with 413, which Chromium logs as a failed resource.
  expectConsole(/status of 413 \(Payload Too Large\)/);
  await asUser(context, `dana-${who}`);
  await page.goto(demo);
  await send(page, 'use secure__sign_in');
  const popupOpened = context.waitForEvent('page');
  await linkRequest(page).getByRole('button', { name: 'Connect secure' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Sign in as').fill(`dana-${who}`);
  await popup.getByRole('button', { name: 'Allow' }).click();
  await expect(linkRequest(page)).toHaveAttribute('data-status', 'accepted');
  await expect(page.getByTestId('status')).toHaveText('ready');

  // A resource the server reads with this user's tokens, attached as a file.
  const picker = page.getByRole('button', { name: 'Attach a resource' });
  await picker.click();
  await page.getByRole('button', { name: 'A 3 MiB note' }).click();
  await expect(page.getByTestId('resource-menu').getByRole('alert')).toHaveText(
    'The resource is 3,145,728 bytes; at most 1,048,576 are read.',
  );
  await expect(page.getByTestId('composer-files')).toHaveCount(0);
  await page.getByRole('button', { name: 'Welcome note' }).click();
  await expect(page.getByTestId('composer-files')).toContainText('welcome.txt');

  // A prompt as a slash command: its argument form, completion from the server, its text in the draft.
  const field = page.getByRole('textbox', { name: 'Message' });
  await field.fill('/sum');
  await page
    .getByTestId('prompt-commands')
    .getByRole('button', { name: /\/summarize/ })
    .click();
  const topic = page.getByRole('combobox', { name: 'topic (required)' });
  await topic.fill('ap');
  await expect(page.getByTestId('prompt-form').locator('datalist option')).toHaveCount(2);
  await topic.fill('apples');
  await topic.press('Enter');
  await expect(field).toHaveValue('Summarize my notes about apples.');
  await expect(page.getByTestId('composer-files')).toContainText('welcome.txt');
  await screenshot(page, 'mcp-resources-prompts');
});
