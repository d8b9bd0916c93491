// POST /api/chat: a Route Handler of the App Router; the handler streams one AG-UI run as Server-Sent Events.
import { POST as handleChat } from '../../../src/server';

export const POST = (request: Request) => handleChat(request);
// Each request streams its own run: never cached or prerendered.
export const dynamic = 'force-dynamic';
