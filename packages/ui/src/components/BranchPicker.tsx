/** Props of {@link BranchPicker}. */
export interface BranchPickerProps {
  /** This version's place among its siblings, from 0. */
  readonly index: number;
  /** How many versions there are. */
  readonly count: number;
  /** Shows the version before; the button is disabled on the first. */
  readonly onPrevious: () => void;
  /** Shows the version after; the button is disabled on the last. */
  readonly onNext: () => void;
  /** Disables both buttons (while a response streams, or a switch is under way). Defaults to `false`. */
  readonly disabled?: boolean;
  /** What the versions are, for screen readers. Defaults to `Versions`. */
  readonly label?: string;
}

/**
 * `‹ 2/3 ›` under an edited message or a regenerated answer: which version shows, and buttons to
 * the others (`useThreadChat`'s `branchAt` and `switchBranch` give what it needs).
 *
 * @example
 * ```tsx
 * const view = chat.branchAt(message);
 * view ? <BranchPicker index={view.index} count={view.count} onPrevious={() => chat.switchBranch(view.previous!)} onNext={() => chat.switchBranch(view.next!)} /> : null;
 * ```
 */
export function BranchPicker(props: BranchPickerProps) {
  const { index, count, disabled = false } = props;
  return (
    <div className="cw-branch-picker" role="group" aria-label={props.label ?? 'Versions'} data-testid="branch-picker">
      <button
        type="button"
        className="cw-action"
        aria-label="Previous version"
        disabled={disabled || index <= 0}
        onClick={props.onPrevious}
      >
        ‹
      </button>
      <span className="cw-branch-position" data-testid="branch-position">{`${index + 1}/${count}`}</span>
      <button
        type="button"
        className="cw-action"
        aria-label="Next version"
        disabled={disabled || index >= count - 1}
        onClick={props.onNext}
      >
        ›
      </button>
    </div>
  );
}
