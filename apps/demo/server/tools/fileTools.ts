import { readFile, searchFiles, shareFile } from '../../shared/catalog.ts';
import { hash, pick, TODAY, addDays } from './demoData.ts';
import type { Latency } from './latency.ts';

const FILES = [
  { id: 'FILE-201', name: 'Q3 Sales Review.pptx', type: 'presentation', owner: 'Maya Chen' },
  { id: 'FILE-202', name: 'Holiday Campaign Plan.docx', type: 'document', owner: 'Priya Raman' },
  { id: 'FILE-203', name: 'Inventory Forecast 2027.xlsx', type: 'spreadsheet', owner: 'Jonas Berg' },
  { id: 'FILE-204', name: 'Returns Policy.pdf', type: 'pdf', owner: 'Ana Souza' },
  { id: 'FILE-205', name: 'Warehouse Floor Plan.png', type: 'image', owner: 'Tom Okafor' },
  { id: 'FILE-206', name: 'Supplier Contacts.xlsx', type: 'spreadsheet', owner: 'Liam Novak' },
] as const;

const FILE_TEXT =
  'Returns policy (summary). Customers may return most items within 30 days of delivery for a full refund to the ' +
  'original payment method. Items must be unused and in their original packaging. Opened headphones and earbuds ' +
  'can be returned only if faulty. Refunds are issued within 3 to 5 business days after the return is received. ' +
  'Free return shipping applies to members of the Plus tier; everyone else pays a flat $5.95 label fee.';

/** Server implementations of the files tools. */
export function fileTools(slow: Latency) {
  return [
    searchFiles.server(
      slow(({ query, fileType, modifiedAfter, limit }) => {
        const terms = query.toLowerCase().match(/[a-z0-9]+/g) ?? [];
        const pool = FILES.filter((file) => !fileType || fileType === 'any' || file.type === fileType);
        const matched = pool.filter((file) => terms.some((term) => file.name.toLowerCase().includes(term)));
        const files = (matched.length > 0 ? matched : pool)
          .map(({ id, name, owner }) => ({ id, name, owner, modified: addDays(TODAY, -(hash(id) % 60)) }))
          .filter((file) => !modifiedAfter || file.modified >= modifiedAfter)
          .slice(0, limit ?? 3);
        return { query, exactMatches: matched.length, files };
      }),
    ),
    readFile.server(
      slow(({ fileId, maxChars }) => {
        const file = FILES.find((candidate) => candidate.id === fileId) ?? pick(FILES, fileId);
        const limit = maxChars ?? 400;
        return { fileId, name: file.name, text: FILE_TEXT.slice(0, limit), truncated: FILE_TEXT.length > limit };
      }),
    ),
    shareFile.server(
      slow(({ fileId, recipients, permission }) => ({
        fileId,
        sharedWith: recipients,
        permission,
        link: `https://drive.example.com/f/${fileId}`,
      })),
    ),
  ] as const;
}
