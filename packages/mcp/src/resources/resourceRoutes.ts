import { jsonError } from '@chatwire/server/extension';
import { McpServerError } from '../connection/mcpServerError.js';
import { readJsonObject } from '../http/readJsonObject.js';
import type { McpResources } from './mcpResources.js';
import { McpResourceError } from './resourceReads.js';

/** The largest JSON body the prompt routes read, in bytes (a prompt's arguments: at most 50 of 10,000 characters). */
const MAX_BODY = 600 * 1024;

const STATUS: Record<McpResourceError['code'], number> = { 'too-large': 413, 'not-found': 404, invalid: 400, unsupported: 422 };

const noStore = { 'cache-control': 'no-store' };

/** A refusal as JSON: what went wrong in words that are safe to show (a server's own error text cut to 300 characters). */
function refusal(error: unknown): Response {
  if (error instanceof McpResourceError) return jsonError(STATUS[error.code], error.message, error.code);
  if (error instanceof McpServerError) return jsonError(502, error.message.slice(0, 300), 'server-unavailable');
  const text = error instanceof Error ? error.message : String(error);
  return jsonError(502, `The MCP server refused: ${text.slice(0, 300)}`, 'server-error');
}

const readJson = (request: Request) => readJsonObject(request, MAX_BODY);

const isStringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');

/**
 * The resources and prompts routes below the MCP handler's mount (`route` is the path below it);
 * `undefined` for any other path. The caller has checked the request's origin.
 *
 * - `GET /resources`: each server's resources (`{ servers: ServerResources[] }`).
 * - `GET /resources/read?server=&uri=`: one resource's contents (`McpResourceContent`); 413 past the size bound.
 * - `GET /prompts`: each server's prompts (`{ servers: ServerPrompts[] }`), the skipped ones with the reason.
 * - `POST /prompts/get` `{ server, name, arguments }`: the prompt's messages (`McpPromptMessages`).
 * - `POST /prompts/complete` `{ server, name, argument: { name, value }, context? }`: `{ values }`.
 */
export async function resourceRoute(resources: McpResources, route: string, request: Request): Promise<Response | undefined> {
  if (!['/resources', '/resources/read', '/prompts', '/prompts/get', '/prompts/complete'].includes(route)) return undefined;
  try {
    if (route === '/resources' || route === '/prompts' || route === '/resources/read') {
      if (request.method !== 'GET') return jsonError(405, `Use GET (got ${request.method}).`, 'method-not-allowed');
      if (route === '/resources') return Response.json({ servers: await resources.resources(request) }, { headers: noStore });
      if (route === '/prompts') return Response.json({ servers: await resources.prompts(request) }, { headers: noStore });
      const params = new URL(request.url).searchParams;
      const server = params.get('server');
      const uri = params.get('uri');
      if (!server || !uri) return jsonError(400, 'Give the resource as `?server=<name>&uri=<uri>`.', 'invalid');
      return Response.json(await resources.read(request, server, uri), { headers: noStore });
    }
    const body = await readJson(request);
    if (body instanceof Response) return body;
    const { server, name } = body;
    if (typeof server !== 'string' || typeof name !== 'string') return jsonError(400, 'Give `server` and `name` as strings.', 'invalid');
    if (route === '/prompts/get') {
      const args = body['arguments'] ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        return jsonError(400, '`arguments` must be an object of the prompt’s argument names to text.', 'invalid');
      return Response.json(await resources.prompt(request, server, name, args as Record<string, unknown>), { headers: noStore });
    }
    const argument = body['argument'] as { name?: unknown; value?: unknown } | undefined;
    const context = body['context'] ?? {};
    if (typeof argument?.name !== 'string' || typeof argument.value !== 'string')
      return jsonError(400, 'Give `argument` as `{ name, value }`, both strings.', 'invalid');
    if (!isStringRecord(context) || Object.keys(context).length > 50)
      return jsonError(400, '`context` must be an object of at most 50 argument names to text.', 'invalid');
    const values = await resources.complete(request, server, name, { name: argument.name, value: argument.value }, context);
    return Response.json({ values }, { headers: noStore });
  } catch (error) {
    return refusal(error);
  }
}
