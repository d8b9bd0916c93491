import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { isoDate } from './fields.ts';

/* The demo catalog: Files (server). */

export const searchFiles = toolDefinition({
  name: 'searchFiles',
  description:
    'Searches the shared drive by file name and content. Returns file ids, names, owners and modification dates; open a result with readFile.',
  lazy: true,
  inputSchema: z.object({
    query: z.string().min(1).max(200).describe('Words in the file name or content.'),
    fileType: z
      .enum(['any', 'document', 'spreadsheet', 'presentation', 'pdf', 'image'])
      .optional()
      .describe('Restrict to one kind of file.'),
    modifiedAfter: isoDate.optional().describe('Only files changed on or after this date.'),
    limit: z.number().int().min(1).max(5).optional().describe('How many files, 1 to 5. Defaults to 3.'),
  }),
});

export const readFile = toolDefinition({
  name: 'readFile',
  description: 'Reads the text of a file from the shared drive, truncated to maxChars characters.',
  lazy: true,
  inputSchema: z.object({
    fileId: z.string().min(1).describe('File id from searchFiles, e.g. "FILE-204".'),
    maxChars: z.number().int().min(100).max(4000).optional().describe('Most characters to return, 100 to 4000. Defaults to 400.'),
  }),
});

export const shareFile = toolDefinition({
  name: 'shareFile',
  description:
    'Shares a file with other people and e-mails them a link. Needs approval. Grant the least permission that does the job: view, then comment, then edit.',
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    fileId: z.string().min(1).describe('File id from searchFiles.'),
    recipients: z.array(z.email()).min(1).max(10).describe('Addresses to share with.'),
    permission: z.enum(['view', 'comment', 'edit']).describe('What the recipients may do.'),
    message: z.string().max(500).optional().describe('Note to include in the sharing e-mail.'),
  }),
});
