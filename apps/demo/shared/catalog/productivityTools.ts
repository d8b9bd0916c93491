import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { isoDate } from './fields.ts';

/* The demo catalog: Notes and tasks (server). */

export const createNote = toolDefinition({
  name: 'createNote',
  description: "Saves a note to the user's notebook, optionally tagged for later search.",
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('Note title.'),
    body: z.string().min(1).max(4000).describe('Note text; Markdown is kept as plain text.'),
    tags: z.array(z.string().min(1).max(30)).max(5).optional().describe('Up to 5 tags, e.g. ["travel", "receipts"].'),
  }),
});

export const searchNotes = toolDefinition({
  name: 'searchNotes',
  description: 'Finds notes by words in their title or body, or by tag.',
  lazy: true,
  inputSchema: z.object({
    query: z.string().min(1).max(200).describe('Words to look for.'),
    tag: z.string().max(30).optional().describe('Only notes with this tag.'),
  }),
});

const taskPriority = z.enum(['low', 'medium', 'high']);

export const createTask = toolDefinition({
  name: 'createTask',
  description:
    'Adds a task to the team task tracker with an optional due date, priority and assignee. For a quick personal checklist item on this page, use addTodo instead.',
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('What needs doing.'),
    dueDate: isoDate.optional().describe('Due date (YYYY-MM-DD).'),
    priority: taskPriority.default('medium').describe('Defaults to medium.'),
    assignee: z.email().optional().describe('Who should do it. Defaults to the user.'),
  }),
});

export const listTasks = toolDefinition({
  name: 'listTasks',
  description: 'Tasks from the team task tracker, most urgent first.',
  lazy: true,
  inputSchema: z.object({
    status: z.enum(['open', 'done', 'all']).default('open').describe('Which tasks. Defaults to open ones.'),
    priority: taskPriority.optional().describe('Only tasks of this priority.'),
    limit: z.number().int().min(1).max(10).optional().describe('How many tasks, 1 to 10. Defaults to 5.'),
  }),
});

export const completeTask = toolDefinition({
  name: 'completeTask',
  description: 'Marks a task as done.',
  lazy: true,
  inputSchema: z.object({
    taskId: z.string().min(1).describe('Task id from listTasks, e.g. "TASK-88".'),
  }),
});
