import { mkdirSync } from 'node:fs';
import { test as base, expect, type Locator, type Page, type TestInfo } from '@playwright/test';

export { expect };

/**
 * The demo's e2e test: every test fails on a console error, an uncaught page error, or a React
 * warning (the e2e build bundles React's development build, so its warnings are on). A test that
 * provokes an error on purpose (a page of another origin, a network failure) lists the messages it
 * expects with `test.use({ expectedConsole: [...] })` or `expectConsole(...)`; nothing else passes.
 */
export const test = base.extend<{ expectedConsole: RegExp[]; consoleGuard: void }>({
  expectedConsole: [[], { option: true }],
  consoleGuard: [
    async ({ page, expectedConsole }, use, testInfo) => {
      const problems: string[] = [];
      const expected = (text: string) => [...expectedConsole, ...extraExpected(testInfo)].some((pattern) => pattern.test(text));
      page.on('console', (message) => {
        const text = message.text();
        const isReactWarning = message.type() === 'warning' && /react|warning:|\[chatwire\]/i.test(text);
        if ((message.type() === 'error' || isReactWarning) && !expected(text)) problems.push(`console.${message.type()}: ${text}`);
      });
      page.on('pageerror', (error) => {
        if (!expected(error.message)) problems.push(`page error: ${error.message}`);
      });
      await use();
      expect(problems, 'console errors, page errors or React warnings during the test').toEqual([]);
    },
    { auto: true },
  ],
});

const extra = new WeakMap<TestInfo, RegExp[]>();
const extraExpected = (testInfo: TestInfo) => extra.get(testInfo) ?? [];

/** Declares console messages this test provokes on purpose (checked against every message). */
export function expectConsole(...patterns: RegExp[]): void {
  const info = test.info();
  extra.set(info, [...extraExpected(info), ...patterns]);
}

/** True in the 390 px project. */
export const isMobile = (page: Page): boolean => (page.viewportSize()?.width ?? 1280) < 720;

/**
 * Saves a screenshot a person can look at: `test-results/screenshots/<project>/<name>.png` (the
 * folder is ignored by git).
 */
export async function screenshot(page: Page, name: string, target?: Locator): Promise<void> {
  const dir = `test-results/screenshots/${test.info().project.name}`;
  mkdirSync(dir, { recursive: true });
  const path = `${dir}/${name}.png`;
  if (target) await target.screenshot({ path });
  else await page.screenshot({ path });
}

/** Types a message and sends it with the Send button. */
export async function send(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message', { exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

/** Sends a message and waits for the turn to come to rest: answered, or waiting for the person's approval. */
export async function sendAndWait(page: Page, text: string): Promise<void> {
  await send(page, text);
  await expect(page.getByTestId('status')).toHaveText(/^(ready|waiting for approval)$/);
}

/** The last card of a tool in the conversation. */
export const card = (page: Page, tool: string): Locator => page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`).last();

/** The last assistant message. */
export const lastAnswer = (page: Page): Locator => page.locator('[data-role="assistant"]').last();

/**
 * Whether the element at the centre of `target` is `target` itself (or inside it): nothing covers it.
 * Pierces shadow roots, so a devtools panel on top is seen.
 */
export async function isUncovered(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const box = element.getBoundingClientRect();
    let hit: Element | null = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit !== null && (hit === element || element.contains(hit));
  });
}
