/** The project's content: filters, full-text search and server pages, so a project of any size lists at once. */
import { keepPreviousData, useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { unwrap } from '../../api';
import { Field, messageOf, Notice, offsetMoves, Pager, pageRange, Select, when } from '../../ui';
import { CONTENT_KINDS, CONTENT_STATUSES, useCms, type ContentKind, type ContentStatus } from './cms-context';

const PAGE = 20;
const ANY = 'any';

interface Filters {
  q: string;
  type: ContentKind | typeof ANY;
  status: ContentStatus | typeof ANY;
  offset: number;
}

export function ContentList() {
  const { client, projectId, base, writes } = useCms();
  const { query } = useLocation();
  const [filters, setFilters] = useState<Filters>({
    q: query.q ?? '',
    type: (CONTENT_KINDS as readonly string[]).includes(query.type ?? '') ? (query.type as ContentKind) : ANY,
    status: ANY,
    offset: 0,
  });
  // The search box is applied on submit, not on each key: full-text search on a large project is not free.
  const [search, setSearch] = useState(filters.q);
  const list = useQuery({
    queryKey: ['cms-content', projectId, filters],
    queryFn: () =>
      unwrap(
        client.cms.getContent({
          params: {
            query: {
              limit: PAGE,
              offset: filters.offset,
              ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
              ...(filters.type !== ANY ? { type: filters.type } : {}),
              ...(filters.status !== ANY ? { status: filters.status } : {}),
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const total = list.data?.total ?? 0;
  return (
    <section>
      <h1>Content</h1>
      {query.deleted && <Notice kind="success">Content deleted.</Notice>}
      {writes && (
        <p>
          <a class="button" href={`${base}/content/new`}>
            New content
          </a>
        </p>
      )}
      <form
        class="inline"
        role="search"
        aria-label="Filter content"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters({ ...filters, q: search, offset: 0 });
        }}
      >
        <Field
          label="Search title and text"
          type="search"
          value={search}
          onInput={(event) => setSearch(event.currentTarget.value)}
        />
        <Select
          label="Kind"
          value={filters.type}
          options={[ANY, ...CONTENT_KINDS]}
          onChange={(type) => setFilters({ ...filters, type: type as Filters['type'], offset: 0 })}
        />
        <Select
          label="Status"
          value={filters.status}
          options={[ANY, ...CONTENT_STATUSES]}
          onChange={(status) => setFilters({ ...filters, status: status as Filters['status'], offset: 0 })}
        />
        <button type="submit">Search</button>
      </form>
      {list.error && <Notice kind="error">{messageOf(list.error)}</Notice>}
      <p role="status" aria-live="polite" class="hint">
        {list.isFetching ? 'Loading…' : total === 0 ? 'No content matches.' : pageRange(filters.offset, PAGE, total)}
      </p>
      <table aria-busy={list.isFetching}>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Slug</th>
            <th scope="col">Publish at</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {list.data?.content.map((item) => (
            <tr key={item.id}>
              <td>
                <a href={`${base}/content/${item.id}`}>{item.title}</a>
              </td>
              <td>{item.type}</td>
              <td>{item.status}</td>
              <td>
                <code>{item.slug}</code>
              </td>
              <td>{when(item.publishAt)}</td>
              <td>{when(item.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager
        label="content"
        {...offsetMoves(filters.offset, PAGE, total, (offset) => setFilters({ ...filters, offset }))}
      />
    </section>
  );
}
