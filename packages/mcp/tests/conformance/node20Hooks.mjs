// The conformance CLI imports `globSync` from 'fs' (Node 22+). It only uses it in its tier report,
// never in client runs: on Node 20 this hook gives it an 'fs' with a globSync that says so.
import { register } from 'node:module';

const shim = `
export * from 'node:fs';
import fs from 'node:fs';
export default fs;
export function globSync() { throw new Error('globSync needs Node 22 (not used by client scenarios)'); }
`;
const hooks = `
export async function resolve(specifier, context, next) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL && context.parentURL.includes('/@modelcontextprotocol/conformance/')) {
    return { url: 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(shim)}), shortCircuit: true };
  }
  return next(specifier, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
