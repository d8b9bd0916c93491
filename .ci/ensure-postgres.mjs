// Makes sure PostgreSQL's server binaries exist for the thread store tests: POSTGRES_BIN (a folder
// with initdb and postgres) when set, else Debian's postgresql, installed with apt-get when missing
// (needs root). The tests create a throwaway cluster in a temporary folder, start it on a free
// loopback port and stop it; nothing here creates a cluster or starts a service.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';

const override = process.env.POSTGRES_BIN;

/** The newest /usr/lib/postgresql/<version>/bin that has initdb and postgres. */
function debianBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(`${root}/${name}/bin/initdb`) && existsSync(`${root}/${name}/bin/postgres`))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : `${root}/${versions[0]}/bin`;
}

if (override) {
  if (!existsSync(`${override}/initdb`) || !existsSync(`${override}/postgres`)) {
    console.error(`POSTGRES_BIN is set to ${override}, but initdb and postgres are not both there.`);
    process.exit(1);
  }
} else if (!debianBin()) {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    console.error('PostgreSQL is missing: install it with `sudo apt-get install -y postgresql`, or set POSTGRES_BIN.');
    process.exit(1);
  }
  console.log('Installing Debian postgresql (apt-get)…');
  // A temporary policy-rc.d keeps Debian from starting the system service (the tests run their own
  // cluster); one that already exists is left as it is.
  const policy = '/usr/sbin/policy-rc.d';
  const ownPolicy = !existsSync(policy);
  if (ownPolicy) writeFileSync(policy, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql', {
      stdio: 'inherit',
    });
  } finally {
    if (ownPolicy) rmSync(policy, { force: true });
  }
  if (!debianBin()) {
    console.error('apt-get installed postgresql, but no /usr/lib/postgresql/<version>/bin/initdb was found.');
    process.exit(1);
  }
}
