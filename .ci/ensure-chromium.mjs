// Makes sure the Chromium that Playwright drives exists: CHROMIUM_PATH when set, else Debian's
// /usr/bin/chromium, installed with apt-get when missing (needs root). Browser downloads are not
// possible on these machines, so Playwright never fetches its own.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const override = process.env.CHROMIUM_PATH;
const path = override ?? '/usr/bin/chromium';

if (!existsSync(path)) {
  if (override) {
    console.error(`CHROMIUM_PATH is set to ${override}, but no file is there.`);
    process.exit(1);
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    console.error('Chromium is missing: install it with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH.');
    process.exit(1);
  }
  console.log('Installing Debian chromium (apt-get)…');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
}
