import type { NextConfig } from 'next';

const config: NextConfig = {
  // The server package runs in Node (crypto, streams) and is loaded as installed, not bundled.
  serverExternalPackages: ['@chatwire/server'],
};

export default config;
