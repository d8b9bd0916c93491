import { expect, type Locator, type Page } from '@playwright/test';

// What the specs of the apps built from the docs share: sending a message, a tool's card, the devtools' figures.

/** Types `text` in the composer and sends it. */
export async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Every card of `tool`'s calls (`@chatwire/ui`'s tool-call card), oldest first. */
export const toolCalls = (page: Page, tool: string) => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`);

/** A card's state in words ("Done", "Waiting for your approval"). */
export const stateOf = (call: Locator) => call.getByTestId('tool-state');

/** Every figure of the devtools' Tokens tab, with the first turn selected (a lazy tool's discovery). */
async function tokenFigures(panel: Locator): Promise<string> {
  await panel.getByLabel('Turn', { exact: true }).selectOption('1');
  const texts = (testId: string) => panel.getByTestId(testId).evaluateAll((rows) => rows.map((row) => row.textContent));
  return JSON.stringify({
    headline: await panel.getByTestId('savings-conversation').textContent(),
    conversation: await texts('tokens-conversation'),
    turns: await texts('tokens-turn-row'),
    calls: await texts('tokens-call-row'),
  });
}

/** The Tokens tab's figures once two reads in a row agree (the panel refreshes a few times a second). */
export async function settledFigures(panel: Locator): Promise<string> {
  let figures = '';
  await expect
    .poll(async () => {
      const [first, second] = [await tokenFigures(panel), await tokenFigures(panel)];
      figures = second;
      return first === second;
    })
    .toBe(true);
  return figures;
}

/** Collects what the page logs as errors (uncaught exceptions, console errors); a spec expects none. */
export function collectProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  return problems;
}
