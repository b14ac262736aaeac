/** LLM usage of a project: requests, tokens and cost per UTC day and model over a chosen range, as charts and tables. */
import { useQuery } from '@tanstack/preact-query';
import { useMemo, useState } from 'preact/hooks';
import { CallFailed, unwrap } from '../../api';
import { Busy, Field, messageOf, Notice } from '../../ui';
import { LlmFrame, useLlmProject, type LlmSchemas } from './llm-frame';
import { usd, whole } from './llm-format';
import { colourOf, UsageChart } from './usage-chart';
import { lastDays, totalsOf, toUsageSeries } from './usage-series';

type Range = { from: string; to: string };

// Costs per day are often fractions of a cent: the axis keeps three significant digits.
const usdAxis = (value: number) =>
  value === 0 ? '$0' : `$${value.toLocaleString('en', { maximumSignificantDigits: 3 })}`;
const PRESETS = [7, 30, 90] as const;

export function LlmUsage() {
  const project = useLlmProject();
  const [draft, setDraft] = useState<Range>(() => lastDays(30));
  const [range, setRange] = useState<Range>(draft);
  const usage = useQuery({
    queryKey: ['llm-usage', project.projectId, range],
    queryFn: () => unwrap(project.client.getUsageDaily({ params: { query: range } })),
  });
  const fields = usage.error instanceof CallFailed ? usage.error.fieldMessages : {};
  return (
    <LlmFrame project={project} title="Usage">
      <form
        class="inline"
        aria-label="Usage range"
        onSubmit={(event) => {
          event.preventDefault();
          setRange({ ...draft });
        }}
      >
        <Field
          label="From (UTC day)"
          type="date"
          value={draft.from}
          required
          onInput={(event) => setDraft({ ...draft, from: event.currentTarget.value })}
          error={fields.from}
        />
        <Field
          label="To (UTC day)"
          type="date"
          value={draft.to}
          required
          onInput={(event) => setDraft({ ...draft, to: event.currentTarget.value })}
          error={fields.to}
        />
        <Busy busy={usage.isFetching} type="submit">
          Show usage
        </Busy>
        {PRESETS.map((count) => (
          <button
            key={count}
            type="button"
            class="secondary"
            onClick={() => {
              const preset = lastDays(count);
              setDraft(preset);
              setRange(preset);
            }}
          >
            Last {count} days
          </button>
        ))}
      </form>
      {usage.error && <Notice kind="error">{messageOf(usage.error)}</Notice>}
      {usage.isLoading && <p role="status">Loading usage…</p>}
      {usage.data && <UsageView usage={usage.data} />}
    </LlmFrame>
  );
}

function UsageView(props: { usage: LlmSchemas['DailyUsage'] }) {
  const { usage } = props;
  const series = useMemo(() => toUsageSeries(usage, usage.days), [usage]);
  if (!series.models.length) {
    return (
      <Notice kind="info">
        No request from {usage.from} to {usage.to}.
      </Notice>
    );
  }
  return (
    <>
      <p role="status">
        {usage.from} to {usage.to} (UTC days)
      </p>
      <ul class="legend" aria-label="Models">
        {series.models.map((model, i) => (
          <li key={model}>
            <span class="swatch" style={{ background: colourOf(i) }} aria-hidden="true" /> {model}
          </li>
        ))}
      </ul>
      <div class="charts">
        <UsageChart title="Requests per day" series={series} metric="requests" format={whole} />
        <UsageChart title="Tokens per day" series={series} metric="totalTokens" format={whole} />
        <UsageChart title="Cost per day (USD)" series={series} metric="costUsd" format={usdAxis} />
      </div>
      <section aria-labelledby="per-model-title">
        <h2 id="per-model-title">Per model</h2>
        <table data-testid="usage-per-model" tabIndex={0}>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Requests</th>
              <th scope="col">Tokens</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {series.models.map((model, i) => {
              const totals = totalsOf(usage.days, model);
              return (
                <tr key={model}>
                  <th scope="row">
                    <span class="swatch" style={{ background: colourOf(i) }} aria-hidden="true" /> {model}
                  </th>
                  <td>{whole(totals.requests)}</td>
                  <td>{whole(totals.totalTokens)}</td>
                  <td>{usd(totals.costUsd)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <details>
        <summary>Per day and model</summary>
        <table tabIndex={0}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Model</th>
              <th scope="col">Requests</th>
              <th scope="col">Failed</th>
              <th scope="col">Tokens</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {usage.days.map((entry) => (
              <tr key={`${entry.day}-${entry.model}`}>
                <td>{entry.day}</td>
                <td>{entry.model}</td>
                <td>{whole(entry.requests)}</td>
                <td>{whole(entry.failedRequests)}</td>
                <td>{whole(entry.totalTokens)}</td>
                <td>{usd(entry.costUsd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}
