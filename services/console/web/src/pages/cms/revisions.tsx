/** An item's revisions: pages of them, the diff of one against the current item, and its restore. */
import { keepPreviousData, useMutation, useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { unwrap } from '../../api';
import { Busy, messageOf, Notice, offsetMoves, Pager, when } from '../../ui';
import { useCms, type ContentItem, type Revision } from './cms-context';
import { lineDiff } from './line-diff';

const PAGE = 10;

export function Revisions(props: { item: ContentItem; onRestored(): Promise<void> }) {
  const { client, projectId, writes } = useCms();
  const [offset, setOffset] = useState(0);
  const [shown, setShown] = useState<number>();
  const path = { content_id: props.item.id };
  const revisions = useQuery({
    queryKey: ['cms-revisions', projectId, props.item.id, offset],
    queryFn: () =>
      unwrap(client.cms.getContentByContentIdRevisions({ params: { path, query: { limit: PAGE, offset } } })),
    placeholderData: keepPreviousData,
  });
  const restore = useMutation({
    mutationFn: (number: number) =>
      unwrap(
        client.cms.postContentByContentIdRevisionsByNumberRestore({
          params: { path: { ...path, number: String(number) } },
        }),
      ),
    onSuccess: async () => {
      setShown(undefined);
      setOffset(0);
      await props.onRestored();
    },
  });
  const total = revisions.data?.total ?? 0;
  const selected = revisions.data?.revisions.find((revision) => revision.number === shown);
  return (
    <section aria-labelledby="revisions-title">
      <h2 id="revisions-title">Revisions</h2>
      {revisions.error && <Notice kind="error">{messageOf(revisions.error)}</Notice>}
      {restore.error && <Notice kind="error">{messageOf(restore.error)}</Notice>}
      {restore.isSuccess && <Notice kind="success">Revision {restore.variables} restored as a new revision.</Notice>}
      <table>
        <thead>
          <tr>
            <th scope="col">Revision</th>
            <th scope="col">Change</th>
            <th scope="col">Status</th>
            <th scope="col">Title</th>
            <th scope="col">When</th>
            <th scope="col">Compare</th>
          </tr>
        </thead>
        <tbody>
          {revisions.data?.revisions.map((revision) => (
            <tr key={revision.number}>
              <td>{revision.number}</td>
              <td>{revision.change}</td>
              <td>{revision.status}</td>
              <td>{revision.title}</td>
              <td>{when(revision.createdAt)}</td>
              <td>
                <button
                  type="button"
                  class="link"
                  aria-pressed={shown === revision.number}
                  onClick={() => setShown(shown === revision.number ? undefined : revision.number)}
                >
                  Compare revision {revision.number}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {total > PAGE && <Pager label="revisions" {...offsetMoves(offset, PAGE, total, setOffset)} />}
      {selected && (
        <article class="card" aria-labelledby="diff-title">
          <h3 id="diff-title">Revision {selected.number} compared with the current item</h3>
          <RevisionDiff revision={selected} current={props.item} />
          {writes && (
            <Busy busy={restore.isPending} type="button" onClick={() => restore.mutate(selected.number)}>
              Restore revision {selected.number}
            </Busy>
          )}
        </article>
      )}
    </section>
  );
}

const FIELDS = ['title', 'slug', 'status', 'content', 'metadata'] as const;

const textOf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

function RevisionDiff(props: { revision: Revision; current: ContentItem }) {
  const changed = FIELDS.filter((field) => textOf(props.revision[field]) !== textOf(props.current[field]));
  if (changed.length === 0) return <p>The revision is the same as the current item.</p>;
  return (
    <>
      <p class="hint">Lines marked − are the revision’s, lines marked + the current item’s.</p>
      {changed.map((field) => (
        <section key={field} aria-label={`Changes to ${field}`}>
          <h4>{field}</h4>
          <pre class="diff" data-testid={`diff-${field}`}>
            {lineDiff(textOf(props.revision[field]), textOf(props.current[field])).map((line, index) =>
              line.kind === 'same' ? (
                <span key={index}>{`  ${line.text}\n`}</span>
              ) : line.kind === 'removed' ? (
                <del key={index}>{`− ${line.text}\n`}</del>
              ) : (
                <ins key={index}>{`+ ${line.text}\n`}</ins>
              ),
            )}
          </pre>
        </section>
      ))}
    </>
  );
}
