import type { Page } from '@playwright/test';
import { expect, isMobile, lastAnswer, screenshot, sendAndWait, test } from './fixtures.ts';

// Threads live on the server: the list, each thread's branches, reload and a second page. Every
// test shares the demo server (one user), so this one finds its threads by words of its own.

/** The thread list: a column on wide screens, a drawer the header's "Chats" button opens on a phone. */
async function threads(page: Page) {
  const list = page.getByRole('navigation', { name: 'Chats' });
  if (isMobile(page) && !(await list.isVisible())) await page.getByTestId('threads-toggle').click();
  await expect(list).toBeVisible();
  return list;
}

/** Closes the drawer on a phone (it covers the conversation there). */
async function closeThreads(page: Page) {
  if (isMobile(page)) await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: 'Close' }).click();
}

const threadItem = (page: Page, text: string) =>
  page.getByRole('navigation', { name: 'Chats' }).getByTestId('thread').filter({ hasText: text });
const userMessage = (page: Page) => page.locator('[data-role="user"]').first();

test('threads: two chats, switch, rename, delete, edit and switch branches, reload, a second page', async ({ page, browser }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  await page.goto('/');
  await sendAndWait(page, `apple ${tag}`);
  // The address names the thread once the server has it.
  await expect(page).toHaveURL(/\?thread=demo-/);
  const first = new URL(page.url()).searchParams.get('thread');

  // A second thread.
  let list = await threads(page);
  await list.getByRole('button', { name: 'New thread' }).click();
  await expect(page.locator('[data-role]')).toHaveCount(0);
  await sendAndWait(page, `banana ${tag}`);
  await expect(page).toHaveURL(/\?thread=demo-/);
  expect(new URL(page.url()).searchParams.get('thread')).not.toBe(first);
  await threads(page);
  await expect(threadItem(page, `apple ${tag}`)).toHaveCount(1);
  await expect(threadItem(page, `banana ${tag}`)).toHaveAttribute('aria-current', 'true');

  // Switch to the first: its conversation comes from the server.
  await threadItem(page, `apple ${tag}`).getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`thread=${first}`));
  await expect(userMessage(page)).toContainText(`apple ${tag}`);
  await expect(lastAnswer(page)).toContainText(`apple ${tag}`);

  // Rename it.
  list = await threads(page);
  await threadItem(page, `apple ${tag}`).getByRole('button', { name: 'Rename chat' }).click();
  await list.getByLabel('Chat title').fill(`Fruit ${tag}`);
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(threadItem(page, `Fruit ${tag}`)).toHaveCount(1);

  // Delete the second.
  await threadItem(page, `banana ${tag}`).getByRole('button', { name: 'Delete chat' }).click();
  await expect(threadItem(page, `banana ${tag}`)).toHaveCount(0);
  await closeThreads(page);

  // Edit the first message: the server keeps both versions; the picker switches between them.
  await userMessage(page).getByRole('button', { name: 'Edit' }).click();
  await userMessage(page).getByLabel('Edit message').fill(`cherry ${tag}`);
  await userMessage(page).getByRole('button', { name: 'Save and send' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.locator('[data-role]')).toHaveCount(2);
  await expect(userMessage(page).getByTestId('branch-position')).toHaveText('2/2');
  await userMessage(page).getByRole('button', { name: 'Previous version' }).click();
  await expect(userMessage(page)).toContainText(`apple ${tag}`);
  await expect(userMessage(page).getByTestId('branch-position')).toHaveText('1/2');
  await expect(lastAnswer(page)).toContainText(`apple ${tag}`);
  await userMessage(page).getByRole('button', { name: 'Next version' }).click();
  await expect(userMessage(page)).toContainText(`cherry ${tag}`);
  await expect(lastAnswer(page)).toContainText(`cherry ${tag}`);

  // Regenerate: the new answer is a sibling of the first, with its own picker.
  await lastAnswer(page).getByRole('button', { name: 'Regenerate' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(lastAnswer(page).getByTestId('branch-position')).toHaveText('2/2');
  await screenshot(page, 'demo-threads');

  // A reload shows the same thread, its branches, and the list with the new title.
  await page.reload();
  await expect(userMessage(page)).toContainText(`cherry ${tag}`);
  await expect(userMessage(page).getByTestId('branch-position')).toHaveText('2/2');
  await threads(page);
  await expect(threadItem(page, `Fruit ${tag}`)).toHaveAttribute('aria-current', 'true');
  await expect(threadItem(page, `banana ${tag}`)).toHaveCount(0);

  // A second page of a fresh browser (nothing saved locally): the server is the source.
  const other = await browser.newContext({ viewport: page.viewportSize() });
  try {
    const second = await other.newPage();
    await second.goto(page.url());
    await expect(userMessage(second)).toContainText(`cherry ${tag}`);
    await expect(userMessage(second).getByTestId('branch-position')).toHaveText('2/2');
    await expect(lastAnswer(second).getByTestId('branch-position')).toHaveText('2/2');
    await threads(second);
    await expect(threadItem(second, `Fruit ${tag}`)).toHaveCount(1);
    await closeThreads(second);
    // Switching a branch there shows the other version; the first page sees it after a reload.
    await userMessage(second).getByRole('button', { name: 'Previous version' }).click();
    await expect(userMessage(second)).toContainText(`apple ${tag}`);
  } finally {
    await other.close();
  }

  // A second page of the same browser lists the same threads.
  const sibling = await page.context().newPage();
  await sibling.goto('/');
  await threads(sibling);
  await expect(threadItem(sibling, `Fruit ${tag}`)).toHaveCount(1);
  await sibling.close();
});
