import type { Diagnostic } from '../../model/index.js';

/** The parser's diagnostics in words: what, where (entry index, field, line, column) and the raw line. */
export function DiagnosticsList(props: { diagnostics: Diagnostic[] }) {
  if (props.diagnostics.length === 0) return <p class="muted">No problems found in the document.</p>;
  return (
    <ol class="diagnostics">
      {props.diagnostics.map((d) => (
        <DiagnosticItem diagnostic={d} />
      ))}
    </ol>
  );
}

function DiagnosticItem(props: { diagnostic: Diagnostic }) {
  const d = props.diagnostic;
  return (
    <li class={`diag diag-${d.severity}`} data-diagnostic={d.code}>
      <p>
        <span class={`severity severity-${d.severity}`}>{d.severity}</span> {d.message}{' '}
        <code class="muted">{d.code}</code>
      </p>
      <p class="where">{whereWords(d)}</p>
      {d.excerpt !== undefined && <Excerpt line={d.excerpt} column={d.excerptColumn ?? d.column} />}
    </li>
  );
}

/** "entry index 3, field pubDate, line 41, column 7", or "the whole document". */
export function whereWords(d: Diagnostic): string {
  const parts: string[] = [];
  if (d.entry !== undefined) parts.push(`entry index ${d.entry}`);
  if (d.field !== undefined) parts.push(`field ${d.field}`);
  if (d.line !== undefined) parts.push(`line ${d.line}`);
  if (d.column !== undefined) parts.push(`column ${d.column}`);
  return parts.length > 0 ? parts.join(', ') : 'the whole document';
}

// The raw line of the document, with a caret under the column when the line reaches it. The caret
// keeps the line's tabs so that it stays aligned.
function Excerpt(props: { line: string; column: number | undefined }) {
  const { line, column } = props;
  const caret =
    column !== undefined && column >= 1 && column <= line.length + 1
      ? `${line.slice(0, column - 1).replace(/[^\t]/g, ' ')}^`
      : undefined;
  return (
    <pre class="excerpt">
      <code>{line}</code>
      {caret !== undefined && <span class="caret">{`\n${caret}`}</span>}
    </pre>
  );
}
