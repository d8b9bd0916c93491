import type { Page } from '@playwright/test';
import { expect, lastAnswer, screenshot, sendAndWait, test } from './fixtures.ts';

interface Seen {
  /** Every state each nested call showed, in order. */
  readonly calls: Record<string, string[]>;
  /** The states of all nested calls together, each time the page changed them. */
  readonly together: string[];
}

/** Records the states the page's nested calls show, as the page renders them. */
async function recordNestedStates(page: Page): Promise<() => Promise<Seen>> {
  await page.evaluate(() => {
    const seen: Seen = { calls: {}, together: [] };
    const record = () => {
      const elements = [...document.querySelectorAll('[data-testid="nested-call"]')];
      elements.forEach((element, index) => {
        const state = element.getAttribute('data-state') ?? '?';
        const states = (seen.calls[`${index}:${element.getAttribute('data-tool')}`] ??= []);
        if (states.at(-1) !== state) states.push(state);
      });
      const together = elements.map((element) => element.getAttribute('data-state')).join(',');
      if (together && seen.together.at(-1) !== together) seen.together.push(together);
    };
    new MutationObserver(record).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-state'],
    });
    (window as unknown as { nestedStates: Seen }).nestedStates = seen;
  });
  return () => page.evaluate(() => (window as unknown as { nestedStates: Seen }).nestedStates);
}

test('a Code Mode turn: the API is discovered, the code part shows its calls running in parallel, its console and its result; devtools lists the discovered API', async ({
  page,
}) => {
  await page.goto('/');
  const nestedStates = await recordNestedStates(page);
  await sendAndWait(page, 'use code to compare the weather in Paris and Tokyo');

  // First the lookup of the lazy API...
  const step = page.locator('[data-testid="discovery-step"][data-kind="code-mode"]').last();
  await expect(step).toHaveAttribute('data-tools', 'getWeather');
  await expect(step).toContainText('Discovered getWeather');

  // ...then the code, each call it made, its console and what it returned.
  const part = page.getByTestId('code-part').last();
  await expect(part).toHaveAttribute('data-state', 'output-available');
  await expect(part.getByTestId('code-state')).toContainText('Code ran');
  await expect(part.getByTestId('code-source')).toContainText('await Promise.all([');
  const nested = part.getByTestId('nested-call');
  await expect(nested).toHaveCount(2);
  await expect(nested.nth(0)).toContainText('external_getWeather({"city":"Paris"})');
  await expect(nested.nth(1)).toContainText('external_getWeather({"city":"Tokyo"})');
  for (const index of [0, 1]) {
    await expect(nested.nth(index)).toHaveAttribute('data-state', 'output-available');
    await expect(nested.nth(index).getByTestId('nested-state')).toContainText('Done');
  }
  await expect(part.getByTestId('code-logs')).toHaveText('2 result(s) received');
  await expect(part.getByTestId('code-result')).toContainText('"Paris": {');
  await expect(part.getByTestId('code-result')).toContainText('"Tokyo": {');
  await expect(lastAnswer(page)).toContainText('The code ran 2 calls in one execution. Paris: city Paris');

  // Each call was seen running, then done; both ran at once (the page showed them running together).
  const seen = await nestedStates();
  expect(seen.calls).toEqual({ '0:getWeather': ['executing', 'output-available'], '1:getWeather': ['executing', 'output-available'] });
  expect(seen.together).toContain('executing,executing');
  await screenshot(page, 'demo-code-mode', part);

  // Devtools: the Code Mode tab lists getWeather as discovered in the turn's second model call.
  await page.getByRole('button', { name: 'Chatwire devtools' }).click();
  const panel = page.getByTestId('chatwire-devtools');
  await expect(panel).toBeVisible();
  await panel.getByRole('tab', { name: 'Code Mode' }).click();
  const api = (name: string) => panel.locator(`[data-testid="code-api-row"][data-api="${name}"]`);
  await expect(api('getWeather')).toHaveAttribute('data-status', 'discovered');
  await expect(api('getWeather')).toContainText('turn 1, model call 2');
  await expect(api('getWeather')).toContainText('external_getWeather');
  await expect(api('searchProducts')).toHaveAttribute('data-status', 'eager');
  await expect(api('getForecast')).toHaveAttribute('data-status', 'undiscovered');
  await expect(panel.getByTestId('code-count-discovered')).toHaveText('1 discovered');
  await expect(panel.locator('[data-testid="code-execution-row"]')).toHaveAttribute('data-state', 'succeeded');
  expect(Number(await panel.getByTestId('code-savings-turn').getAttribute('data-net'))).toBeGreaterThan(0);
  // Before the discovery, the first model call had it undiscovered.
  await panel.getByLabel('Code Mode model call').selectOption('Model call 1');
  await expect(api('getWeather')).toHaveAttribute('data-status', 'undiscovered');
  await screenshot(page, 'devtools-code-mode');
});
