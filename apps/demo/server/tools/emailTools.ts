import { draftEmail, getEmailThread, searchEmails, sendEmail } from '../../shared/catalog.ts';
import { hash, pick, TODAY, addDays, PEOPLE } from './demoData.ts';
import type { Latency } from './latency.ts';

const emailOf = (person: string): string => `${person.toLowerCase().replace(/\s+/g, '.')}@example.com`;

/** Server implementations of the e-mail tools. */
export function emailTools(slow: Latency) {
  return [
    searchEmails.server(
      slow(({ query, from, unreadOnly, limit }) => {
        const subjects = ['Re: Q3 numbers', 'Your order has shipped', 'Holiday campaign draft', 'Invoice #4471', 'Team offsite logistics'];
        const messages = Array.from({ length: limit ?? 3 }, (_, i) => {
          const sender = from ?? emailOf(pick(PEOPLE, query, String(i)));
          return {
            threadId: `TH-${5500 + (hash(query + i) % 400)}`,
            from: sender,
            subject: pick(subjects, query, String(i)),
            date: addDays(TODAY, -i * 2),
            unread: unreadOnly ? true : i === 0,
            snippet: `…${query.slice(0, 16)}…`,
          };
        });
        return { query: query.slice(0, 40), messages };
      }),
    ),
    getEmailThread.server(
      slow(({ threadId }) => {
        const a = pick(PEOPLE, threadId, 'a');
        return {
          threadId,
          subject: pick(['Re: Q3 numbers', 'Team offsite logistics', 'Holiday campaign draft'], threadId),
          messages: [
            { from: emailOf(a), date: addDays(TODAY, -3), body: 'Sharing the latest version; comments welcome by Friday.' },
            { from: 'alex.morgan@example.com', date: addDays(TODAY, -2), body: 'Thanks! Two small notes inline.' },
            { from: emailOf(a), date: addDays(TODAY, -1), body: 'Updated. Good to go from my side.' },
          ],
        };
      }),
    ),
    draftEmail.server(
      slow(({ to, subject, body, tone }) => ({
        draftId: `DR-${100 + (hash(to + subject) % 900)}`,
        to,
        subject,
        tone: tone ?? 'neutral',
        words: body.split(/\s+/).filter(Boolean).length,
      })),
    ),
    sendEmail.server(
      slow(({ to, subject, body }) => ({
        messageId: `MSG-${10000 + (hash(to + subject + body) % 90000)}`,
        to,
        subject,
        sent: true as const,
      })),
    ),
  ] as const;
}
