/** The side of the page that browser tools write to: pinned notes and a to-do list (text only). */
export function PagePanel(props: { notes: readonly string[]; todos: readonly string[] }) {
  return (
    <aside className="page-panel">
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
