import { cancelCalendarEvent, createCalendarEvent, findFreeSlot, listCalendarEvents } from '../../shared/catalog.ts';
import { hash, pick, addDays } from './demoData.ts';
import type { Latency } from './latency.ts';

const toMinutes = (time: string): number => {
  const [h, m] = time.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

const toClock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

const CALENDAR_TITLES = ['Stand-up', 'Design review', 'Lunch with Priya', '1:1 with Maya', 'Supplier call', 'Focus time'];

/** Server implementations of the calendar tools. */
export function calendarTools(slow: Latency) {
  return [
    listCalendarEvents.server(
      slow(({ date, days, calendar }) => {
        const events = Array.from({ length: days ?? 1 }, (_, day) => addDays(date, day)).flatMap((day) =>
          [0, 1].map((i) => ({
            eventId: `EVT-${3000 + (hash(day + i) % 900)}`,
            title: pick(CALENDAR_TITLES, day, String(i)),
            start: `${day}T${toClock(9 * 60 + (hash(day + i) % 8) * 60)}`,
            calendar: calendar === 'personal' || (calendar !== 'work' && i === 1 && hash(day) % 2 === 0) ? 'personal' : 'work',
          })),
        );
        const shown = events.sort((a, b) => a.start.localeCompare(b.start)).slice(0, 5);
        return { events: shown, more: events.length - shown.length };
      }),
    ),
    createCalendarEvent.server(
      slow(({ title, date, startTime, durationMinutes, attendees }) => ({
        eventId: `EVT-${3000 + (hash(title + date + startTime) % 900)}`,
        title,
        start: `${date}T${startTime}`,
        end: `${date}T${toClock(toMinutes(startTime) + durationMinutes)}`,
        invited: attendees?.length ?? 0,
      })),
    ),
    findFreeSlot.server(
      slow(({ date, durationMinutes, attendees, workingHours }) => {
        const dayStart = toMinutes(workingHours?.start ?? '09:00');
        const dayEnd = toMinutes(workingHours?.end ?? '17:00');
        // Busy until a stable, half-hour aligned offset into the day (more attendees, later slot).
        const startAt = dayStart + ((hash(date + (attendees ?? []).join(',')) % 6) + (attendees?.length ?? 0)) * 30;
        const fits = startAt + durationMinutes <= dayEnd;
        return {
          date,
          start: fits ? toClock(startAt) : null,
          end: fits ? toClock(startAt + durationMinutes) : null,
          checkedAttendees: attendees?.length ?? 0,
        };
      }),
    ),
    cancelCalendarEvent.server(slow(({ eventId, notifyAttendees }) => ({ eventId, cancelled: true, attendeesNotified: notifyAttendees }))),
  ] as const;
}
