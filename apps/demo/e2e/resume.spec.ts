import { expect, lastAnswer, screenshot, send, test } from './fixtures.ts';

/** The numbers of the story's parts in the order they show ("Part 1:" ... "Part 12:"). */
const partsOf = (text: string) => [...text.matchAll(/Part (\d+):/g)].map((match) => Number(match[1]));
const allParts = Array.from({ length: 12 }, (_, index) => index + 1);

test('a reload during "write a long story": the story continues from where it was, then finishes', async ({ page }) => {
  const requests: { method: string; url: string; lastEventId: string | undefined }[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/chat')
      requests.push({ method: request.method(), url: request.url(), lastEventId: request.headers()['last-event-id'] });
  });
  await page.goto('/');
  await send(page, 'write a long story');
  await expect(lastAnswer(page)).toContainText('Part 2:');
  await expect(page.getByTestId('status')).toHaveText('streaming');

  await page.reload();
  const answer = lastAnswer(page).locator('.cw-markdown');
  // The saved story is on the page at once (from localStorage), and the run goes on where it was.
  await expect(answer).toContainText('Part 2:');
  const resumedFrom = (await answer.textContent()) ?? '';
  await expect(answer).toContainText('Part 12:');
  await expect(page.getByTestId('status')).toHaveText('ready');

  // Every part once, in order: nothing was lost or shown twice, and what was there before the reload stayed.
  const story = (await answer.textContent()) ?? '';
  expect(partsOf(story)).toEqual(allParts);
  expect(story.startsWith(resumedFrom.trimEnd())).toBe(true);
  await expect(page.locator('[data-role="user"]')).toHaveCount(1);
  await expect(page.locator('[data-role="assistant"]')).toHaveCount(1);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // One run: started once, read again once after the reload from the last event the page had applied.
  expect(requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  const resumed = requests.filter((request) => request.method === 'GET');
  expect(resumed).toHaveLength(1);
  expect(Number(resumed[0]?.lastEventId)).toBeGreaterThan(0);
  await screenshot(page, 'demo-resumed');

  // Reloaded again once the story finished: it is all there, nothing is resumed.
  await page.reload();
  await expect(page.getByTestId('status')).toHaveText('ready');
  expect(partsOf((await lastAnswer(page).locator('.cw-markdown').textContent()) ?? '')).toEqual(allParts);
  expect(requests.filter((request) => request.method === 'GET')).toHaveLength(1);
});

test('Stop after a reload asks the server to stop the resumed run; New chat starts over', async ({ page }) => {
  const stops: { url: string; status: Promise<number | undefined> }[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/chat' && request.method() === 'DELETE') {
      stops.push({ url: request.url(), status: request.response().then((response) => response?.status()) });
    }
  });
  await page.goto('/');
  await send(page, 'write a long story');
  await expect(lastAnswer(page)).toContainText('Part 1:');
  // After the reload the resumed stream is held back, so Stop comes while it is being read, however busy the machine.
  let held: (() => Promise<void>) | undefined;
  await page.route(/\/api\/chat\?/, async (route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    held = () => route.abort().catch(() => {});
  });
  await page.reload();
  await expect.poll(() => held !== undefined).toBe(true);
  await expect(page.getByTestId('status')).toHaveText(/submitted|streaming/);
  const kept = (await lastAnswer(page).locator('.cw-markdown').textContent()) ?? '';
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect.poll(() => stops.length).toBe(1);
  // The server knew the run and the token: 200 (stopped, or finished already if the machine was slow).
  expect(await stops[0]?.status).toBe(200);
  await held?.();
  await page.unroute(/\/api\/chat\?/);
  expect(kept).not.toContain('Part 12:');
  await expect(lastAnswer(page).locator('.cw-markdown')).toHaveText(kept);

  // The run was stopped: a reload finds nothing to resume, and the answer stays as it was stopped.
  await page.reload();
  await expect(page.getByTestId('status')).toHaveText('ready');
  await expect(lastAnswer(page).locator('.cw-markdown')).toHaveText(kept);

  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(page.locator('[data-role]')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('[data-role]')).toHaveCount(0);
  await expect(page.getByText('Try “use getWeather for Paris”', { exact: false })).toBeVisible();
});
