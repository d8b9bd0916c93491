import { expect, expectConsole, lastAnswer, screenshot, test } from './fixtures.ts';

/** An 8 x 8 orange PNG, written by hand (74 bytes). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAAEUlEQVR4nGO44KCAFTEMLQkA3ntMAZQ6QMoAAAAASUVORK5CYII=', 'base64');

test.beforeEach(async ({ page }) => {
  await page.goto('/');
});

test('attach an image: it is listed before sending, shown in the message, and the model acknowledges it', async ({ page }) => {
  await page.getByTestId('file-input').setInputFiles({ name: 'orange.png', mimeType: 'image/png', buffer: PNG });
  const chips = page.getByTestId('composer-files');
  await expect(chips).toContainText('orange.png');
  await expect(chips).toContainText('74 B');
  await page.getByLabel('Message', { exact: true }).fill('what is in this picture?');
  await page.getByRole('button', { name: 'Send' }).click();

  await expect(page.getByTestId('composer-files')).toHaveCount(0);
  const sent = page.locator('[data-role="user"]').last();
  const image = sent.getByRole('img', { name: 'orange.png' });
  await expect(image).toBeVisible();
  // The image really decoded (not a broken-image box).
  expect(await image.evaluate((element: HTMLImageElement) => [element.complete, element.naturalWidth])).toEqual([true, 8]);
  await expect(sent.locator('.cw-user-text')).toHaveText('what is in this picture?');
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(lastAnswer(page)).toContainText('an image named orange.png (image/png');
  await screenshot(page, 'demo-attachment');

  // Editing the message keeps its image.
  await sent.getByRole('button', { name: 'Edit' }).click();
  await page.getByLabel('Edit message').fill('and the colour?');
  await page.getByRole('button', { name: 'Save and send' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);
  await expect(page.locator('[data-role="user"]').getByRole('img', { name: 'orange.png' })).toBeVisible();
  await expect(lastAnswer(page)).toContainText('an image named orange.png');
  await expect(lastAnswer(page)).toContainText('and the colour?');
});

test('an attachment alone, without text, is sent; a removed one is not', async ({ page }) => {
  await page.getByTestId('file-input').setInputFiles([
    { name: 'keep.png', mimeType: 'image/png', buffer: PNG },
    { name: 'drop.txt', mimeType: 'text/plain', buffer: Buffer.from('not this one') },
  ]);
  await page.getByRole('button', { name: 'Remove drop.txt' }).click();
  await expect(page.getByTestId('composer-files')).not.toContainText('drop.txt');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  const sent = page.locator('[data-role="user"]').last();
  await expect(sent.getByRole('img', { name: 'keep.png' })).toBeVisible();
  await expect(sent).not.toContainText('drop.txt');
  await expect(lastAnswer(page)).toContainText('keep.png');
  await expect(lastAnswer(page)).not.toContainText('drop.txt');
});

test('a file over the limit is refused with the reason; the message and the file stay to fix', async ({ page }) => {
  // The client also tells the developer, once, in the console of a development build.
  expectConsole(/file-too-large; nothing was sent/);
  await page
    .getByTestId('file-input')
    .setInputFiles({ name: 'huge.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(3 * 1024 * 1024, 1) });
  await page.getByLabel('Message', { exact: true }).fill('read this');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByTestId('send-refused')).toContainText('huge.pdf');
  await expect(page.getByLabel('Message', { exact: true })).toHaveValue('read this');
  await expect(page.getByTestId('composer-files')).toContainText('huge.pdf');
  await expect(page.locator('[data-role="user"]')).toHaveCount(0);
});
