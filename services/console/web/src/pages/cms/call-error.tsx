/** A failed call in words, with each of the service's field complaints (a schema's errors, say) listed under it. */
import { CallFailed } from '../../api';
import { messageOf, Notice } from '../../ui';

export function CallError(props: { error: unknown }) {
  const details = props.error instanceof CallFailed ? (props.error.envelope?.error.details ?? []) : [];
  return (
    <Notice kind="error">
      {messageOf(props.error)}
      {details.length > 0 && (
        <ul>
          {details.map((detail) => (
            <li key={`${detail.path}:${detail.message}`}>
              {detail.path ? <code>{detail.path}</code> : null} {detail.message}
            </li>
          ))}
        </ul>
      )}
    </Notice>
  );
}
