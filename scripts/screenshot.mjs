#!/usr/bin/env node
/**
 * Takes the README's screenshot (docs/images/demo.png) of a running demo in headless Chromium:
 * a server tool, a lazy tool after its discovery step, and an approval waiting for the user.
 *
 *   npm start                                  (in another terminal; prints the demo's URL)
 *   node scripts/screenshot.mjs http://127.0.0.1:5173/ [docs/images/demo.png]
 */
import { chromium } from 'playwright-core';

const [url = 'http://127.0.0.1:5173/', path = 'docs/images/demo.png'] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
  await page.goto(url);
  const send = async (text, settled) => {
    const box = page.getByRole('textbox').first();
    await box.fill(text);
    await box.press('Enter');
    await page.getByText(settled).last().waitFor({ timeout: 20_000 });
  };
  await send('use getWeather for Paris', /getWeather returned/);
  await send('use getForecast for Paris for 3 days', /getForecast returned/);
  await send('use refundOrder for ORD-1234', /approv/i);
  await page.waitForTimeout(500);
  await page.screenshot({ path });
  console.log(`screenshot: ${path}`);
} finally {
  await browser.close();
}
