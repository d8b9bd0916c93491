import { expect, screenshot, sendAndWait, test } from './fixtures.ts';

/**
 * The screenshots docs/demo.md shows, made here at each project's width (1280 and 390 px): the demo
 * after a lazy tool's turn and with an approval waiting, the devtools open where they open by
 * default, on their Tokens tab. Every run saves them under test-results/screenshots/<project>/;
 * `npm run screenshots` (DOCS_SCREENSHOTS=1) writes them to docs/images/demo-devtools-<width>.png.
 * Not on every run: the figures move by a few tokens from run to run (the discovery exchange holds
 * random call ids, the forecast today's dates), and a test run should not leave the docs changed.
 */
test('the docs screenshots: the demo with the devtools open', async ({ page }) => {
  await page.goto('/');
  await sendAndWait(page, 'use getForecast for Paris for 3 days');
  await sendAndWait(page, 'use refundOrder for ORD-1234');
  await expect(page.getByTestId('status')).toHaveText('waiting for approval');
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await panel.getByRole('tab', { name: 'Tokens' }).click();
  await expect(panel.getByTestId('tokens-turn-row')).toHaveCount(2);
  await expect(panel.getByTestId('savings-conversation')).toHaveText(/^Discovery (saved|cost) [\d,]+ (more )?tokens$/);
  // The panel refreshes a few times a second: the picture is taken once two reads of its figures agree.
  const figures = () => panel.getByTestId('tokens-turn-row').evaluateAll((rows) => rows.map((row) => row.textContent).join('|'));
  await expect.poll(async () => (await figures()) === (await figures())).toBe(true);
  const { width } = page.viewportSize()!;
  const options = { scale: 'css', animations: 'disabled', caret: 'hide' } as const;
  await screenshot(page, 'docs-demo-devtools');
  if (process.env['DOCS_SCREENSHOTS'] === '1') await page.screenshot({ ...options, path: `docs/images/demo-devtools-${width}.png` });
});
