/** The project's LLM request logs, newest first: filters (model, status, UTC days) and pages served by the LLM service. */
import { useQuery } from '@tanstack/preact-query';
import { useId, useState } from 'preact/hooks';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice, offsetMoves, Pager, pageRange, Select } from '../../ui';
import { LlmFrame, useLlmProject } from './llm-frame';
import { usd, utcTime } from './llm-format';

const PAGE_SIZE = 25;
const STATUSES = ['any', 'success', 'error'] as const;

interface Filters {
  model: string;
  status: (typeof STATUSES)[number];
  from: string;
  to: string;
}

const NO_FILTER: Filters = { model: '', status: 'any', from: '', to: '' };

/** The filters as the service's query: whole UTC days become the first and the last instant of those days. */
function queryOf(filters: Filters, offset: number) {
  return {
    limit: PAGE_SIZE,
    offset,
    ...(filters.model.trim() ? { model: filters.model.trim() } : {}),
    ...(filters.status !== 'any' ? { status: filters.status } : {}),
    ...(filters.from ? { from: `${filters.from}T00:00:00.000Z` } : {}),
    ...(filters.to ? { to: `${filters.to}T23:59:59.999Z` } : {}),
  };
}

export function LlmLogs() {
  const project = useLlmProject();
  const [draft, setDraft] = useState<Filters>(NO_FILTER);
  const [filters, setFilters] = useState<Filters>(NO_FILTER);
  const [offset, setOffset] = useState(0);
  const modelsId = useId();
  const logs = useQuery({
    queryKey: ['llm-logs', project.projectId, filters, offset],
    queryFn: () =>
      unwrap(
        project.client.getLogsByTenantIdByProjectId({
          params: {
            path: { tenant_id: project.orgId, project_id: project.projectId },
            query: queryOf(filters, offset),
          },
        }),
      ),
  });
  // The models the project may call, offered while typing the model filter.
  const models = useQuery({
    queryKey: ['llm-models', project.projectId],
    queryFn: () => unwrap(project.client.getModels()),
  });
  const fields = logs.error instanceof CallFailed ? logs.error.fieldMessages : {};
  const page = logs.data;
  const rows = page?.logs ?? [];
  return (
    <LlmFrame project={project} title="Logs">
      <form
        class="inline"
        aria-label="Log filters"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters({ ...draft });
          setOffset(0);
        }}
      >
        <Field
          label="Model"
          list={modelsId}
          value={draft.model}
          onInput={(event) => setDraft({ ...draft, model: event.currentTarget.value })}
          error={fields.model}
        />
        <datalist id={modelsId}>
          {models.data?.data.map((model) => (
            <option key={model.id} value={model.id} />
          ))}
        </datalist>
        <Select
          label="Status"
          value={draft.status}
          options={STATUSES}
          onChange={(status) => setDraft({ ...draft, status: status as Filters['status'] })}
        />
        <Field
          label="From (UTC day)"
          type="date"
          value={draft.from}
          onInput={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
          error={fields.from}
        />
        <Field
          label="To (UTC day)"
          type="date"
          value={draft.to}
          onInput={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
          error={fields.to}
        />
        <Busy busy={logs.isFetching} type="submit">
          Apply filters
        </Busy>
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setDraft(NO_FILTER);
            setFilters(NO_FILTER);
            setOffset(0);
          }}
        >
          Clear filters
        </button>
      </form>
      {logs.error && <Notice kind="error">{messageOf(logs.error)}</Notice>}
      {logs.isLoading && <p role="status">Loading logs…</p>}
      {page && (
        <p role="status">
          {page.total === 0 ? 'No request matches.' : `Requests ${pageRange(page.offset, PAGE_SIZE, page.total)}`}
        </p>
      )}
      <table data-testid="llm-logs" tabIndex={0}>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Model</th>
            <th scope="col">Status</th>
            <th scope="col">Tokens (in / out)</th>
            <th scope="col">Cost</th>
            <th scope="col">Latency</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((log) => (
            <tr key={log.id}>
              <td>{utcTime(new Date(log.createdAt).toISOString())}</td>
              <td>
                {log.model} <span class="badge">{log.provider}</span>
              </td>
              <td>
                <span class={log.status === 'error' ? 'badge danger' : 'badge'}>{log.status}</span>
              </td>
              <td>
                {log.totalTokens} ({log.promptTokens} / {log.completionTokens})
              </td>
              <td>{usd(log.costUsd)}</td>
              <td>{log.latencyMs} ms</td>
              <td>{log.error || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager label="logs" {...offsetMoves(offset, PAGE_SIZE, page?.total, setOffset)} />
    </LlmFrame>
  );
}
