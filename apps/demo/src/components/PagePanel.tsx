/**
 * The side of the page that browser tools write to: pinned notes and a to-do list (text only). A
 * column on wide screens; on narrow ones a drawer the header's "Notes & to-do" button opens.
 */
export function PagePanel(props: { notes: readonly string[]; todos: readonly string[]; open: boolean; onClose: () => void }) {
  return (
    <aside id="page-panel" className="page-panel" data-open={props.open} aria-label="Notes and to-do">
      <button type="button" className="page-panel-close action" onClick={props.onClose}>
        Close
      </button>
      <section aria-label="Pinned notes">
        <h2>Pinned notes</h2>
        {props.notes.length === 0 ? <p className="empty">Nothing pinned.</p> : null}
        <ul data-testid="pinned-notes">
          {props.notes.map((note, index) => (
            <li key={index}>{note}</li>
          ))}
        </ul>
      </section>
      <section aria-label="To-do list">
        <h2>To-do</h2>
        {props.todos.length === 0 ? <p className="empty">No tasks.</p> : null}
        <ul data-testid="todos">
          {props.todos.map((todo, index) => (
            <li key={index}>{todo}</li>
          ))}
        </ul>
      </section>
    </aside>
  );
}
