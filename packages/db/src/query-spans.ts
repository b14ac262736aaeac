import type { Knex } from 'knex';
import { inRecordedTrace, platformTracer, recordFailure, SpanKind, type Span } from '@platform/telemetry';

interface QueryData {
  __knexQueryUid?: string;
  sql?: string;
}

const KIND = /^\s*(\w+)/;
// The first table a statement names, quoted or not, schema-qualified or not.
const TABLE = /\b(?:from|into|update|join)\s+(?:"?\w+"?\.)?"?(\w+)"?/i;

/** `SELECT outbox`: the statement's kind and its first table, never its values or its text. */
export function querySummary(sql: string): { kind: string; table?: string } {
  const kind = (KIND.exec(sql)?.[1] ?? 'QUERY').toUpperCase();
  return { kind, table: TABLE.exec(sql)?.[1] };
}

/**
 * A client span per query made inside a trace, named and attributed by the statement's kind and
 * table only (the bindings and the text never reach a span). Queries outside a sampled trace (a
 * relay's poll, a sweep, an unsampled request) start none. Installed only while an SDK is registered.
 */
export function traceQueries(db: Knex, database?: string): void {
  const open = new Map<string, Span>();
  db.on('query', (data: QueryData) => {
    if (!data.__knexQueryUid || !data.sql || !inRecordedTrace()) return;
    const { kind, table } = querySummary(data.sql);
    const span = platformTracer().startSpan(table ? `${kind} ${table}` : kind, {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.operation.name': kind,
        ...(table ? { 'db.collection.name': table } : {}),
        ...(database ? { 'db.namespace': database } : {}),
      },
    });
    open.set(data.__knexQueryUid, span);
  });
  const close = (data: QueryData | undefined, error?: unknown) => {
    const span = data?.__knexQueryUid ? open.get(data.__knexQueryUid) : undefined;
    if (!span) return;
    open.delete(data!.__knexQueryUid!);
    if (error !== undefined) recordFailure(span, error);
    span.end();
  };
  db.on('query-response', (_response: unknown, data: QueryData) => close(data));
  db.on('query-error', (error: unknown, data: QueryData) => close(data, error));
}
