import type { DevtoolsBlock, DevtoolsCell, DevtoolsMarks, DevtoolsTone } from '@chatwire/core/shared';

// `data-*` attribute names a view may set: lowercase letters, digits and dashes (React refuses others).
const DATA_KEY = /^[a-z][a-z0-9-]{0,39}$/;

/** A view's `testId` and `data` as attributes. */
function marks(item: DevtoolsMarks): Record<string, string> {
  const attributes: Record<string, string> = {};
  if (item.testId !== undefined) attributes['data-testid'] = String(item.testId);
  for (const [key, value] of Object.entries(item.data ?? {})) if (DATA_KEY.test(key)) attributes[`data-${key}`] = String(value);
  return attributes;
}

const TONE_CLASS: Record<DevtoolsTone, string> = { good: 'cw-good', bad: 'cw-bad', warn: 'cw-warn', muted: 'cw-muted', code: 'cw-name' };
const toneClass = (tone: DevtoolsTone | undefined): string | undefined => (tone ? TONE_CLASS[tone] : undefined);
const cellOf = (cell: DevtoolsCell | undefined) => (typeof cell === 'object' ? cell : { text: cell ?? '', tone: undefined });

function Block(props: { block: DevtoolsBlock; onChoice: (key: string, value: string) => void }) {
  const { block } = props;
  switch (block.type) {
    case 'chips':
      return (
        <div className="cw-chips" aria-label={block.label}>
          {block.chips.map((chip, index) => (
            <span key={index} className="cw-chip" {...marks(chip)}>
              {chip.text}
            </span>
          ))}
        </div>
      );
    case 'choice':
      return (
        <div className="cw-toolbar">
          <select aria-label={block.label} value={block.value} onChange={(event) => props.onChoice(block.key, event.target.value)}>
            {block.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      );
    case 'cards':
      return (
        <div className="cw-cards">
          {block.cards.map((card, index) => (
            <div key={index} className="cw-card" {...marks(card)}>
              <span className="cw-muted">{card.label}</span>
              <strong className={toneClass(card.tone)}>{card.value}</strong>
              {card.note === undefined ? null : <span className="cw-muted">{card.note}</span>}
            </div>
          ))}
        </div>
      );
    case 'table':
      return (
        <>
          {block.heading === undefined ? null : <h3>{block.heading}</h3>}
          <table aria-label={block.label}>
            <thead>
              <tr>
                {block.columns.map((column, index) => (
                  <th key={index} className={column.numeric ? 'num' : undefined} title={column.hint}>
                    {column.title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, rowIndex) => (
                <tr key={rowIndex} {...marks(row)}>
                  {block.columns.map((column, index) => {
                    const cell = cellOf(row.cells[index]);
                    const className = [column.numeric ? 'num' : undefined, toneClass(cell.tone)].filter(Boolean).join(' ');
                    return (
                      <td key={index} className={className || undefined}>
                        {cell.text}
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      );
    case 'note':
      return <p className="cw-note">{block.text}</p>;
    case 'empty':
      return <p className="cw-empty">{block.text}</p>;
    default:
      return null;
  }
}

/**
 * A view another package contributed (`DevtoolsView`): its blocks, every string rendered as text.
 * A `choice` block's pick goes back to the view through `onChoice`, and the panel renders it again.
 */
export function ExtensionView(props: { blocks: readonly DevtoolsBlock[]; onChoice: (key: string, value: string) => void }) {
  return (
    <div>
      {props.blocks.map((block, index) => (
        <Block key={index} block={block} onChoice={props.onChoice} />
      ))}
    </div>
  );
}
