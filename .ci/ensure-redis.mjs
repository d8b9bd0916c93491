// Makes sure a redis-server binary exists for the shared-store tests: REDIS_SERVER_PATH when set,
// else Debian's redis-server, installed with apt-get when missing (needs root). The tests start
// their own server on a free loopback port and stop it; nothing here starts a service.
import { execSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';

const override = process.env.REDIS_SERVER_PATH;
const path = override ?? '/usr/bin/redis-server';

if (!existsSync(path)) {
  if (override) {
    console.error(`REDIS_SERVER_PATH is set to ${override}, but no file is there.`);
    process.exit(1);
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    console.error('redis-server is missing: install it with `sudo apt-get install -y redis-server`, or set REDIS_SERVER_PATH.');
    process.exit(1);
  }
  console.log('Installing Debian redis-server (apt-get)…');
  // A temporary policy-rc.d keeps Debian from starting the system service (the tests run their own);
  // one that already exists is left as it is.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server', {
      stdio: 'inherit',
    });
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
}
