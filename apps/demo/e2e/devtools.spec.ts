import type { Locator, Page } from '@playwright/test';
import { expect, isMobile, isUncovered, screenshot, send, sendAndWait, test } from './fixtures.ts';

const panelOf = (page: Page) => page.getByTestId('chatwire-devtools');
const host = (page: Page) => page.locator('[data-chatwire-devtools]');
const row = (panel: Locator, tool: string) => panel.locator(`[data-testid="devtools-tool-row"][data-tool="${tool}"]`);
/** The first number in a text ("9 sent in model call 1" -> 9, "1,234" -> 1234). */
const number = (text: string | null) => Number(/-?[\d,]+/.exec(text ?? '')?.[0]?.replace(/,/g, '') ?? Number.NaN);

async function openDevtools(page: Page) {
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  await expect(panelOf(page)).toBeVisible();
  return panelOf(page);
}

/** Every control of the app (outside the devtools) that a person uses: none may be covered. */
async function appControlsUncovered(page: Page) {
  const report = await page.evaluate(() => {
    // A control scrolled out of its scrolling container (the conversation) is out of view, not covered.
    const inScrollView = (element: Element) => {
      const box = element.getBoundingClientRect();
      const y = box.top + box.height / 2;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const { overflowY } = getComputedStyle(parent);
        if (overflowY !== 'auto' && overflowY !== 'scroll') continue;
        const view = parent.getBoundingClientRect();
        if (y < view.top || y > view.bottom) return false;
      }
      return true;
    };
    const controls = [...document.querySelectorAll('.app button, .app textarea, .app summary')].filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.bottom > 0 && box.top < window.innerHeight && inScrollView(element);
    });
    const covered = controls.filter((element) => {
      const box = element.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      let hit = document.elementFromPoint(x, y);
      while (hit?.shadowRoot) {
        const inner = hit.shadowRoot.elementFromPoint(x, y);
        if (!inner || inner === hit) break;
        hit = inner;
      }
      return !(hit && (hit === element || element.contains(hit)));
    });
    return {
      checked: controls.length,
      covered: covered.map((element) => element.getAttribute('aria-label') ?? element.textContent ?? '?'),
    };
  });
  expect(report.checked).toBeGreaterThanOrEqual(2);
  expect(report.covered, 'app controls under the devtools').toEqual([]);
}

test('the devtools shows lazy tools being discovered, and its counts agree across tabs', async ({ page }) => {
  await page.goto('/');
  const panel = await openDevtools(page);
  await expect(row(panel, 'trackShipment')).toHaveAttribute('data-status', 'undiscovered');
  await expect(row(panel, 'getWeather')).toHaveAttribute('data-status', 'eager');

  await sendAndWait(page, 'use trackShipment for TRK-123456');
  await expect(row(panel, 'trackShipment')).toHaveAttribute('data-status', 'discovered');
  await expect(row(panel, 'trackShipment')).toHaveAttribute('data-sent', 'true');
  await sendAndWait(page, 'use getLoyaltyPoints');
  await expect(row(panel, 'getLoyaltyPoints')).toHaveAttribute('data-status', 'discovered');
  await expect(panel.getByTestId('count-discovered')).toHaveText('2 discovered');
  await expect(page.getByTestId('discovery-count')).toHaveText(/^2\//);

  // "Discovered in" names the model call the selector uses: the first call that was sent the tool.
  await panel.getByLabel('Turn', { exact: true }).selectOption('1');
  await expect(row(panel, 'getLoyaltyPoints')).toHaveAttribute('data-status', 'undiscovered');
  await expect(row(panel, 'trackShipment').getByTestId('discovered-in')).toHaveText('turn 1, model call 2');
  await panel.getByLabel('Model call').selectOption('Model call 1');
  await expect(row(panel, 'trackShipment')).toHaveAttribute('data-sent', 'false');
  await panel.getByLabel('Model call').selectOption('Model call 2');
  await expect(row(panel, 'trackShipment')).toHaveAttribute('data-sent', 'true');
  await expect(panel.locator('th', { hasText: 'Sent in call 2' })).toBeVisible();

  // The tools sent in each model call of turn 1, as the Tools tab counts them...
  const toolsTab: number[] = [];
  for (const call of ['Model call 1', 'Model call 2', 'Model call 3']) {
    await panel.getByLabel('Model call').selectOption(call);
    toolsTab.push(number(await panel.getByTestId('count-sent').textContent()));
  }
  await screenshot(page, 'devtools-tools');
  // ...and as the Tokens tab counts them, per call.
  await panel.getByRole('tab', { name: 'Tokens' }).click();
  const tokensTab = await panel
    .getByTestId('tokens-call-row')
    .evaluateAll((rows) => rows.map((element) => Number(element.getAttribute('data-tools-sent'))));
  expect(tokensTab).toEqual(toolsTab);
  expect(toolsTab[1]).toBe(toolsTab[0]! + 1);
  await expect(panel.getByRole('columnheader', { name: 'Sent / turn', exact: true })).toBeVisible();
  await expect(panel.getByRole('columnheader', { name: 'Sent / call', exact: true })).toBeVisible();
  await expect(panel).toContainText('o200k tokenizer');
  await screenshot(page, 'devtools-tokens');

  await panel.getByRole('tab', { name: 'Timeline' }).click();
  await expect(panel.locator('[data-testid="timeline-row"][data-tool="trackShipment"]')).toHaveAttribute('data-state', 'output-available');
  await screenshot(page, 'devtools-timeline');

  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel.locator('[data-testid="event-row"][data-type="RUN_FINISHED"]')).toHaveCount(1);
  await panel.getByLabel('Event type').selectOption('CUSTOM');
  await expect(panel.locator('[data-testid="event-row"]').first()).toHaveAttribute('data-type', 'CUSTOM');
  await screenshot(page, 'devtools-events');

  // Keyboard: arrows move between tabs, Escape inside the panel closes it.
  await panel.getByRole('tab', { name: 'Events' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(panel.getByRole('tab', { name: 'Timeline' })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
});

test("the header shows one figure, the conversation's savings, with the turn and the rest behind it, as the Tokens tab does", async ({
  page,
}) => {
  await page.goto('/');
  const panel = await openDevtools(page);
  await expect(panel.getByTestId('devtools-savings')).toContainText('No model call yet');
  await sendAndWait(page, 'use trackShipment for TRK-123456');
  await sendAndWait(page, 'use getWeather for Paris');
  const turn = panel.getByTestId('savings-turn');
  const conversation = panel.getByTestId('savings-conversation');
  // One figure in plain words; the share, the turn and the whole requests are in its tooltip and behind the details toggle.
  await expect(conversation).toHaveText(/^Discovery saved [\d,]+ tokens$/);
  await expect(conversation).toHaveAttribute('title', /Turn 2: saved [\d,]+ tokens \(\d+%\)/);
  await expect(turn).toBeHidden();
  await panel.getByLabel('Savings details').click();
  await expect(turn).toBeVisible();
  await expect(turn).toHaveText(/^Turn 2: saved [\d,]+ tokens \(\d+%\)$/);
  await panel.getByLabel('Savings details').click();
  await panel.getByRole('tab', { name: 'Tokens' }).click();
  // The panel refreshes a few times a second: read the header and the table until both settled.
  const read = async () => {
    const perTurn = (
      await panel
        .getByTestId('tokens-turn-row')
        .evaluateAll((rows) => rows.map((element) => element.children[6]?.getAttribute('data-net') ?? ''))
    ).map(Number);
    return {
      perTurn,
      turn: Number(await turn.getAttribute('data-net')),
      conversation: Number(await conversation.getAttribute('data-net')),
      card: Number(await panel.getByTestId('tokens-net-saved').getAttribute('data-net')),
    };
  };
  await expect
    .poll(async () => {
      const figures = await read();
      return (
        figures.perTurn.length === 2 &&
        figures.turn === figures.perTurn[1] &&
        figures.conversation === figures.card &&
        figures.card === figures.perTurn[0]! + figures.perTurn[1]!
      );
    })
    .toBe(true);
  const { perTurn, card } = await read();
  expect(perTurn[0]).toBeGreaterThan(1000);
  // The same figure in the same words in the header and the Tokens tab.
  await expect(conversation).toHaveText(`Discovery saved ${card.toLocaleString('en-US')} tokens`);
  await expect(panel.getByTestId('tokens-net-saved').locator('strong')).toHaveText(`saved ${card.toLocaleString('en-US')} tokens`);
  await panel.getByLabel('Turn', { exact: true }).selectOption('1');
  await expect(turn).toHaveAttribute('data-net', String(perTurn[0]));
  await expect(turn).toHaveText(/^Turn 1: saved/);
  await screenshot(page, 'devtools-header');
});

test('docks at the bottom, on the right or floating, resizes, and remembers all of it across a reload', async ({ page }) => {
  await page.goto('/');
  const panel = await openDevtools(page);
  // The first place depends on the width: on the right of a desktop window, at the bottom of a phone.
  await expect(host(page)).toHaveAttribute('data-dock', isMobile(page) ? 'bottom' : 'right');
  await panel.getByRole('button', { name: 'Dock at the bottom' }).click();
  await expect(host(page)).toHaveAttribute('data-dock', 'bottom');
  const before = (await host(page).boundingBox())!.height;
  const handle = panel.getByTestId('devtools-resize');
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 80, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await host(page).boundingBox())!.height)).toBe(Math.round(before + 80));
  await appControlsUncovered(page);

  await page.reload();
  await expect(panelOf(page)).toBeVisible();
  await expect(host(page)).toHaveAttribute('data-dock', 'bottom');
  expect(Math.round((await host(page).boundingBox())!.height)).toBe(Math.round(before + 80));

  await panelOf(page).getByRole('button', { name: 'Float over the page' }).click();
  await expect(host(page)).toHaveAttribute('data-dock', 'floating');
  const grip = panelOf(page).getByTestId('devtools-move');
  const start = (await host(page).boundingBox())!;
  const gripBox = (await grip.boundingBox())!;
  await page.mouse.move(gripBox.x + 4, gripBox.y + 4);
  await page.mouse.down();
  await page.mouse.move(gripBox.x - 16, gripBox.y + 34, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => Math.round((await host(page).boundingBox())!.y)).toBe(Math.round(start.y + 30));
  await page.reload();
  await expect(host(page)).toHaveAttribute('data-dock', 'floating');
  expect(Math.round((await host(page).boundingBox())!.y)).toBe(Math.round(start.y + 30));

  // Closed, it stays closed after a reload.
  await panelOf(page).getByRole('button', { name: 'Close devtools' }).click();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Chatwire devtools' })).toBeVisible();
  await expect(panelOf(page)).toHaveCount(0);
});

/**
 * The least room the open panel leaves the demo: the app at least 768 px wide beside a right dock
 * (devtools' `minAppSize` default, the narrowest width common layouts draw their desktop layout at),
 * and the chat column at least 360 px (the demo's styles.css turns its side columns into drawers
 * below that), or the whole window when it is narrower.
 */
const MIN_APP_WIDTH = 768;
const MIN_CHAT_WIDTH = 360;
const widthOf = (page: Page, selector: string) => page.locator(selector).evaluate((element) => element.getBoundingClientRect().width);

test('the open panel never narrows the chat below a usable width; the dock the person chose comes back when there is room', async ({
  page,
}) => {
  await page.goto('/');
  await sendAndWait(page, 'use getWeather for Paris');
  const { width, height } = page.viewportSize()!;
  const panel = await openDevtools(page);
  await expect(panel.getByTestId('devtools-savings')).toContainText('Discovery');
  expect(await widthOf(page, '.chat-column')).toBeGreaterThanOrEqual(Math.min(MIN_CHAT_WIDTH, width));
  await appControlsUncovered(page);
  await screenshot(page, 'devtools-open-width');
  const right = panel.getByRole('button', { name: 'Dock on the right' });
  if (isMobile(page)) {
    // A phone has no room beside the panel: it docks at the bottom, and the right dock is offered disabled.
    await expect(host(page)).toHaveAttribute('data-dock', 'bottom');
    await expect(right).toBeDisabled();
    expect(await widthOf(page, '.chat-column')).toBe(width);
    // Turned sideways, there is no room below either: the panel floats over the page.
    await page.setViewportSize({ width: height, height: width });
    await expect(host(page)).toHaveAttribute('data-dock', 'floating');
    await expect(host(page)).toHaveAttribute('data-chosen-dock', 'bottom');
    await page.setViewportSize({ width, height });
    await expect(host(page)).toHaveAttribute('data-dock', 'bottom');
    return;
  }
  await expect(host(page)).toHaveAttribute('data-dock', 'right');
  expect(await widthOf(page, '.app')).toBeGreaterThanOrEqual(MIN_APP_WIDTH);
  // A window too narrow for both: the panel goes to the bottom, the chat keeps its width, and the right dock waits.
  await page.setViewportSize({ width: 1000, height });
  await expect(host(page)).toHaveAttribute('data-dock', 'bottom');
  await expect(host(page)).toHaveAttribute('data-chosen-dock', 'right');
  await expect(right).toBeDisabled();
  expect(await widthOf(page, '.chat-column')).toBeGreaterThanOrEqual(MIN_CHAT_WIDTH);
  await appControlsUncovered(page);
  // Room again: the person's right dock is back, still no wider than leaves the app its minimum.
  await page.setViewportSize({ width, height });
  await expect(host(page)).toHaveAttribute('data-dock', 'right');
  expect(await widthOf(page, '.app')).toBeGreaterThanOrEqual(MIN_APP_WIDTH);
  // Widening the dock past the page's minimum stops at it.
  await panel.getByTestId('devtools-resize').focus();
  for (let press = 0; press < 8; press++) await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(() => widthOf(page, '.app')).toBe(MIN_APP_WIDTH);
  expect(await widthOf(page, '.chat-column')).toBeGreaterThanOrEqual(MIN_CHAT_WIDTH);
  // The person's choice is kept across a reload.
  await panel.getByRole('button', { name: 'Dock at the bottom' }).click();
  await page.reload();
  await expect(host(page)).toHaveAttribute('data-dock', 'bottom');
  expect(await widthOf(page, '.chat-column')).toBeGreaterThanOrEqual(MIN_CHAT_WIDTH);
});

test("neither the devtools toggle nor the docked panel covers the app's controls (tapping Send sends)", async ({ page }) => {
  await page.goto('/');
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  await appControlsUncovered(page);
  expect(await isUncovered(page.getByRole('button', { name: 'Chatwire devtools' }))).toBe(true);
  await page.getByLabel('Message', { exact: true }).fill('hello');
  expect(await isUncovered(page.getByRole('button', { name: 'Send' }))).toBe(true);
  await screenshot(page, 'demo');

  // Open in its default dock: the page gives it room, so Send and the approval buttons stay usable.
  await openDevtools(page);
  await appControlsUncovered(page);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.locator('[data-role="assistant"]').last()).toContainText('You said: "hello"');
  await expect(panelOf(page)).toBeVisible();
  await screenshot(page, 'demo-with-devtools');
});

test('names and payloads from the model are shown as text in the panel, never as HTML', async ({ page }) => {
  await page.goto('/');
  const panel = await openDevtools(page);
  await send(page, 'use showBanner saying "<img src=x onerror=alert(1)><b>bold</b>"');
  await expect(page.getByTestId('banner')).toHaveText('<img src=x onerror=alert(1)><b>bold</b>');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel).toContainText('TOOL_CALL_ARGS');
  await expect(page.locator('img')).toHaveCount(0);
  await expect(page.locator('b', { hasText: 'bold' })).toHaveCount(0);
});
