import { z } from 'zod';
import { toolDefinition, type InputRequest } from '@chatwire/core';

/**
 * The form `bookTable` asks the user to fill: every field kind the demo's form renders (an integer
 * with bounds, enums with and without labels, a required string, a boolean, an optional string).
 */
export const bookingForm: InputRequest['schema'] = {
  type: 'object',
  properties: {
    party: { type: 'integer', title: 'Party size', description: 'How many people, 1 to 12.', minimum: 1, maximum: 12 },
    time: { type: 'string', title: 'Time', enum: ['18:00', '18:30', '19:00', '19:30', '20:00', '21:00'] },
    seating: {
      type: 'string',
      title: 'Seating',
      oneOf: [
        { const: 'inside', title: 'Inside' },
        { const: 'terrace', title: 'On the terrace' },
      ],
    },
    name: { type: 'string', title: 'Name for the booking', minLength: 1, maxLength: 80 },
    highChair: { type: 'boolean', title: 'High chair needed' },
    notes: { type: 'string', title: 'Notes', description: 'Allergies, occasions: anything the restaurant should know.', maxLength: 200 },
  },
  required: ['party', 'time', 'name'],
};

/**
 * A server tool that asks the user for input while it runs (`context.requestInput`): the run ends
 * with an `input_request` interrupt, the page renders the form, and the answer comes back to this
 * very call, which then books (or not). Lazy, like most of the demo's tools.
 */
export const bookTable = toolDefinition({
  name: 'bookTable',
  description: 'Book a table at a restaurant. Asks the user for the party size, the time, the seating and a name in a form.',
  inputSchema: z.object({ restaurant: z.string().default('Chez Chatwire') }),
  lazy: true,
}).server(async ({ restaurant }, context) => {
  const answer = await context.requestInput?.({
    message: `Booking a table at ${restaurant}: how many people, and when?`,
    schema: bookingForm,
  });
  if (!answer) return { booked: false, reason: 'Nobody can be asked here.' };
  if (answer.action === 'decline') return { booked: false, reason: 'The user declined to book.' };
  if (answer.action === 'cancel') return { booked: false, reason: 'The booking was cancelled.' };
  return { booked: true, restaurant, confirmation: `CW-${String(Date.now()).slice(-5)}`, ...answer.content };
});
