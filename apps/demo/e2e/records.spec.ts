import { readdir, readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, screenshot, sendAndWait, test } from './fixtures.ts';

/** Where the served demo writes each run's record (playwright.config.ts sets CHATWIRE_RUN_RECORDS to it). */
const RUN_RECORDS_DIR = new URL('../../../test-results/run-records/', import.meta.url).pathname;

const panelOf = (page: Page) => page.getByTestId('chatwire-devtools');

async function openDevtools(page: Page) {
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  await expect(panelOf(page)).toBeVisible();
  return panelOf(page);
}

interface SavedRecord {
  format: string;
  source: string;
  chatId: string;
  history: { events: { event: { type: string } }[] }[];
  snapshots: unknown[];
  accounting: { turns: { modelCalls: unknown[] }[] };
}

test('devtools saves the chat as a record file and reopens it; a server run record opens the same way', async ({ page }, testInfo) => {
  await page.goto('/');
  const panel = await openDevtools(page);
  await sendAndWait(page, 'use trackShipment for TRK-123456');
  await sendAndWait(page, 'What is the weather in Paris?');
  await expect(panel.getByLabel('Turn', { exact: true }).locator('option')).toHaveCount(2);
  // The panel refreshes at most 5 times a second, so it can still show the chat from before the second
  // turn ended when the app says ready: its figure is read once the panel has the turn's RUN_FINISHED.
  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel.locator('[data-testid="event-row"][data-type="RUN_FINISHED"]')).toHaveCount(1);
  const net = await panel.getByTestId('savings-conversation').getAttribute('data-net');

  // Save: a JSON download holding both turns' events, the settled snapshots and the accounting.
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Save record' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^chatwire-[A-Za-z0-9_-]+-[0-9TZ-]+\.json$/);
  const saved = testInfo.outputPath('saved-chat.json');
  await download.saveAs(saved);
  const record = JSON.parse(await readFile(saved, 'utf8')) as SavedRecord;
  expect(record.format).toBe('chatwire.chat-record');
  expect(record.source).toBe('devtools');
  expect(record.history).toHaveLength(2);
  expect(record.history.map((turn) => turn.events.at(-1)?.event.type)).toEqual(['RUN_FINISHED', 'RUN_FINISHED']);
  expect(record.snapshots.length).toBeGreaterThanOrEqual(2);
  expect(record.accounting.turns.every((turn) => turn.modelCalls.length > 0)).toBe(true);

  // The chat goes on (a third turn); the saved record opened in its place shows the two saved turns and their savings.
  await sendAndWait(page, 'use getLoyaltyPoints');
  await expect(panel.getByLabel('Turn', { exact: true }).locator('option')).toHaveCount(3);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), panel.getByRole('button', { name: 'Open record' }).click()]);
  await chooser.setFiles(saved);
  await expect(panel.getByTestId('devtools-record-banner')).toContainText('saved-chat.json');
  await expect(panel.getByLabel('Turn', { exact: true }).locator('option')).toHaveText(['1', '2 (latest)']);
  await expect(panel.getByTestId('savings-conversation')).toHaveAttribute('data-net', net ?? '');
  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel.locator('[data-testid="event-row"][data-type="RUN_FINISHED"]')).toHaveCount(1);
  await screenshot(page, 'devtools-record');
  await panel.getByRole('button', { name: 'Back to live chat' }).click();
  await expect(panel.getByTestId('devtools-record-banner')).toHaveCount(0);
  await expect(panel.getByLabel('Turn', { exact: true }).locator('option')).toHaveCount(3);

  // The server wrote a record of each run of that chat: one of them opens the same way.
  const prefix = `${encodeURIComponent(record.chatId)}--`;
  let files: string[] = [];
  await expect
    .poll(async () => {
      files = (await readdir(RUN_RECORDS_DIR).catch(() => [] as string[])).filter((name) => name.startsWith(prefix));
      return files.length;
    })
    .toBeGreaterThanOrEqual(3);
  const [chooser2] = await Promise.all([page.waitForEvent('filechooser'), panel.getByRole('button', { name: 'Open record' }).click()]);
  await chooser2.setFiles(`${RUN_RECORDS_DIR}${files[0]}`);
  await expect(panel.getByTestId('devtools-record-banner')).toContainText('one server run');
  await expect(panel.getByLabel('Turn', { exact: true }).locator('option')).toHaveText(['1 (latest)']);
  await panel.getByRole('tab', { name: 'Events' }).click();
  await expect(panel.locator('[data-testid="event-row"][data-type="RUN_STARTED"]')).toHaveCount(1);
});
