import type { Child } from 'hono/jsx';

/**
 * A page's items as a table under its column headings (tokens, users, alert destinations, rules), or
 * `empty` in words when there are none. The rows are the children; the last heading may be '' (actions).
 */
export function ItemTable(props: {
  columns: readonly string[];
  count: number;
  empty?: string | undefined;
  class?: string | undefined;
  children?: Child;
}) {
  if (props.count === 0 && props.empty !== undefined) return <p class="muted">{props.empty}</p>;
  return (
    <div class="table-wrap">
      <table class={props.class}>
        <thead>
          <tr>
            {props.columns.map((column) => (
              <th scope="col">{column}</th>
            ))}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </div>
  );
}
