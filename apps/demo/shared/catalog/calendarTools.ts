import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { isoDate, clockTime } from './fields.ts';

/* The demo catalog: Calendar (server). */

export const listCalendarEvents = toolDefinition({
  name: 'listCalendarEvents',
  description: "Events on the user's calendar for a day or a short range of days, in start order.",
  lazy: true,
  inputSchema: z.object({
    date: isoDate.describe('First day to list (YYYY-MM-DD).'),
    days: z.number().int().min(1).max(14).optional().describe('How many days from that date, 1 to 14. Defaults to 1.'),
    calendar: z.enum(['work', 'personal', 'all']).optional().describe('Which calendar. Defaults to all.'),
  }),
});

export const createCalendarEvent = toolDefinition({
  name: 'createCalendarEvent',
  description:
    "Creates an event on the user's work calendar and sends invitations to the attendees. Check availability with findFreeSlot first when attendees are involved.",
  lazy: true,
  inputSchema: z.object({
    title: z.string().min(1).max(120).describe('Event title as shown on the calendar.'),
    date: isoDate,
    startTime: clockTime.default('09:00').describe('Start time, 24-hour HH:MM. Defaults to 09:00.'),
    durationMinutes: z.number().int().min(15).max(480).describe('Length in minutes, 15 to 480.'),
    attendees: z.array(z.email()).max(20).optional().describe('E-mail addresses to invite.'),
    location: z.string().max(120).optional().describe('Room, address or video-call link.'),
  }),
  outputSchema: z.object({
    eventId: z.string(),
    title: z.string(),
    start: z.string(),
    end: z.string(),
    invited: z.number().int(),
  }),
});

export const findFreeSlot = toolDefinition({
  name: 'findFreeSlot',
  description:
    'Finds the first time on a day when the user and every attendee are free for the requested duration. Searches working hours only (09:00 to 17:00 unless given).',
  lazy: true,
  inputSchema: z.object({
    date: isoDate,
    durationMinutes: z.number().int().min(15).max(240).describe('Length of the slot in minutes, 15 to 240.'),
    attendees: z.array(z.email()).max(10).optional().describe('Other people who must be free too.'),
    workingHours: z
      .object({
        start: clockTime.default('09:00').describe('Start of the window, HH:MM. Defaults to 09:00.'),
        end: clockTime.default('17:00').describe('End of the window, HH:MM. Defaults to 17:00.'),
      })
      .optional()
      .describe('Window to search within. Defaults to 09:00 to 17:00.'),
  }),
  outputSchema: z.object({
    date: z.string(),
    start: z.string().nullable(),
    end: z.string().nullable(),
    checkedAttendees: z.number().int(),
  }),
});

export const cancelCalendarEvent = toolDefinition({
  name: 'cancelCalendarEvent',
  description: 'Deletes an event from the calendar and, by default, notifies its attendees. Needs approval.',
  lazy: true,
  needsApproval: true,
  inputSchema: z.object({
    eventId: z.string().min(1).describe('Event id from listCalendarEvents, e.g. "EVT-3021".'),
    notifyAttendees: z.boolean().default(true).describe('Send a cancellation notice. Defaults to true.'),
  }),
});
