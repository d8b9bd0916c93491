import { resolve } from 'node:path';

/** An environment, as `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The folder the command was started from. npm runs a script in its package's folder (`npm start`
 * runs the demo in apps/demo) and names the folder it was typed in as `INIT_CWD`; without npm it is
 * this process's working folder.
 */
export const startedFrom = (env: Environment): string => env['INIT_CWD'] || process.cwd();

/**
 * A path the environment names (`CHATWIRE_MCP_CONFIG=mcp.json`), resolved against the folder the
 * command was started from, as a shell would; `undefined` when unset or blank.
 */
export function pathSetting(env: Environment, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? resolve(startedFrom(env), value) : undefined;
}
