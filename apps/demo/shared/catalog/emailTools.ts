import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';

/* The demo catalog: E-mail (server). */

export const searchEmails = toolDefinition({
  name: 'searchEmails',
  description:
    "Searches the user's mailbox and returns matching messages with sender, subject, date and a one-line snippet. Supports plain keywords; filter by sender or unread state with the optional fields.",
  lazy: true,
  inputSchema: z.object({
    query: z.string().min(1).max(200).describe('Keywords to look for in subjects and bodies.'),
    from: z.email().optional().describe('Only messages from this address.'),
    unreadOnly: z.boolean().optional().describe('Only unread messages.'),
    limit: z.number().int().min(1).max(3).optional().describe('How many messages, 1 to 3. Defaults to 3.'),
  }),
});

export const getEmailThread = toolDefinition({
  name: 'getEmailThread',
  description: 'All messages of one e-mail thread, oldest first, with bodies shortened to a few lines each.',
  lazy: true,
  inputSchema: z.object({
    threadId: z.string().min(1).describe('Thread id from searchEmails, e.g. "TH-5521".'),
  }),
});

export const draftEmail = toolDefinition({
  name: 'draftEmail',
  description:
    'Saves an e-mail as a draft without sending it, so the user can review it in their mail client. Prefer this over sendEmail when the user has not explicitly asked to send.',
  lazy: true,
  inputSchema: z.object({
    to: z.email().describe('Recipient address.'),
    subject: z.string().min(1).max(150).describe('Subject line.'),
    body: z.string().min(1).max(5000).describe('Plain-text body.'),
    tone: z.enum(['neutral', 'friendly', 'formal']).optional().describe('Tone to polish the body towards.'),
  }),
});

export const sendEmail = toolDefinition({
  name: 'sendEmail',
  description: "Sends an e-mail from the user's account. Always requires approval; the message cannot be recalled once sent.",
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    to: z.email().describe('Recipient address.'),
    subject: z.string().min(1).max(150).describe('Subject line.'),
    body: z.string().min(1).max(5000).describe('Plain-text body.'),
  }),
  outputSchema: z.object({
    messageId: z.string(),
    to: z.string(),
    subject: z.string(),
    sent: z.literal(true),
  }),
});
