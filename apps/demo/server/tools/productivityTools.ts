import { completeTask, createNote, createTask, listTasks, searchNotes } from '../../shared/catalog.ts';
import { hash, TODAY, addDays } from './demoData.ts';
import type { Latency } from './latency.ts';

/** Server implementations of the notes and tasks tools. */
export function productivityTools(slow: Latency) {
  return [
    createNote.server(
      slow(({ title, body, tags }) => ({
        noteId: `NOTE-${100 + (hash(title + body) % 900)}`,
        title,
        tags: tags ?? [],
        characters: body.length,
      })),
    ),
    searchNotes.server(
      slow(({ query, tag }) => ({
        query,
        notes: [
          { noteId: `NOTE-${100 + (hash(query) % 900)}`, title: `Ideas about ${query.slice(0, 40)}`, tags: [tag ?? 'ideas'] },
          { noteId: `NOTE-${100 + (hash(query + 'x') % 900)}`, title: 'Meeting notes: weekly sync', tags: [tag ?? 'meetings'] },
        ],
      })),
    ),
    createTask.server(
      slow(({ title, dueDate, priority, assignee }) => ({
        taskId: `TASK-${10 + (hash(title) % 90)}`,
        title,
        dueDate: dueDate ?? null,
        priority,
        assignee: assignee ?? 'alex.morgan@example.com',
        status: 'open',
      })),
    ),
    listTasks.server(
      slow(({ status, priority, limit }) => {
        const tasks = [
          { taskId: 'TASK-81', title: 'Approve holiday banner copy', priority: 'high', status: 'open', due: addDays(TODAY, 1) },
          { taskId: 'TASK-84', title: 'Reorder USB-C chargers', priority: 'medium', status: 'open', due: addDays(TODAY, 3) },
          { taskId: 'TASK-86', title: 'Reply to supplier about delays', priority: 'high', status: 'done', due: addDays(TODAY, -2) },
          { taskId: 'TASK-88', title: 'Update returns policy PDF', priority: 'low', status: 'open', due: addDays(TODAY, 9) },
        ] as const;
        const filtered = tasks.filter((task) => (status === 'all' || task.status === status) && (!priority || task.priority === priority));
        return { tasks: filtered.slice(0, limit ?? 5) };
      }),
    ),
    completeTask.server(slow(({ taskId }) => ({ taskId, status: 'done', completedOn: TODAY }))),
  ] as const;
}
