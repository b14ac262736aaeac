/** Statistics: the totals by status, and e-mails per day over a chosen range as a table with bars. */
import { useQuery } from '@tanstack/preact-query';
import { useState } from 'preact/hooks';
import { unwrap } from '../../api';
import { Field, messageOf, Notice } from '../../ui';
import type { MailerContext, MailerSchemas } from './mailer-ui';

type Day = MailerSchemas['DailyStats']['days'][number];
const STATUSES = ['delivered', 'sent', 'bounced', 'failed', 'suppressed'] as const;
const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

export function Statistics(props: { context: MailerContext }) {
  const { client, projectId } = props.context;
  const [range, setRange] = useState(() => ({ from: isoDay(Date.now() - 29 * DAY_MS), to: isoDay(Date.now()) }));
  const totals = useQuery({
    queryKey: ['mail-stats', projectId],
    queryFn: () => unwrap(client.mailer.getStats()),
  });
  const daily = useQuery({
    queryKey: ['mail-stats-daily', projectId, range],
    queryFn: () => unwrap(client.mailer.getStatsDaily({ params: { query: range } })),
  });
  return (
    <section aria-labelledby="stats-title">
      <h2 id="stats-title">Statistics</h2>
      {totals.error && <Notice kind="error">{messageOf(totals.error)}</Notice>}
      {totals.data && (
        <dl class="pairs" aria-label="All e-mails by status">
          <dt>Total</dt>
          <dd>{totals.data.total}</dd>
          {STATUSES.map((status) => (
            <>
              <dt key={`${status}-k`}>{status}</dt>
              <dd key={`${status}-v`}>{totals.data[status]}</dd>
            </>
          ))}
        </dl>
      )}
      <h3>Per day</h3>
      <form class="inline" aria-label="Range" onSubmit={(event) => event.preventDefault()}>
        <Field
          label="From"
          type="date"
          value={range.from}
          max={range.to}
          onChange={(event) => event.currentTarget.value && setRange({ ...range, from: event.currentTarget.value })}
        />
        <Field
          label="To"
          type="date"
          value={range.to}
          min={range.from}
          onChange={(event) => event.currentTarget.value && setRange({ ...range, to: event.currentTarget.value })}
        />
      </form>
      {daily.error && <Notice kind="error">{messageOf(daily.error)}</Notice>}
      {daily.isLoading && <p>Loading…</p>}
      {daily.data && daily.data.days.length === 0 && (
        <p>
          No e-mail from {daily.data.from} to {daily.data.to}.
        </p>
      )}
      {daily.data && daily.data.days.length > 0 && <DailyChart days={daily.data.days} />}
    </section>
  );
}

/** One bar per day, stacked by status; the table beside it holds the same figures for every reader. */
function DailyChart(props: { days: Day[] }) {
  const highest = Math.max(1, ...props.days.map((day) => day.total));
  const width = 640;
  const height = 160;
  const slot = width / props.days.length;
  const bar = Math.max(2, Math.min(28, slot * 0.7));
  return (
    <>
      <svg
        class="mail-chart"
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`E-mails per day, ${props.days.length} days, at most ${highest} a day; the table below has every figure`}
      >
        {props.days.map((day, index) => {
          let top = height;
          return (
            <g key={day.day}>
              {STATUSES.map((status) => {
                const size = (day[status] / highest) * (height - 8);
                top -= size;
                return size > 0 ? (
                  <rect
                    key={status}
                    class={`bar-${status}`}
                    x={index * slot + (slot - bar) / 2}
                    y={top}
                    width={bar}
                    height={size}
                  />
                ) : null;
              })}
            </g>
          );
        })}
      </svg>
      <ul class="mail-legend" aria-hidden="true">
        {STATUSES.map((status) => (
          <li key={status}>
            <span class={`mail-swatch bar-${status}`} /> {status}
          </li>
        ))}
      </ul>
      <table tabIndex={0}>
        <caption>E-mails per day (UTC)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Total</th>
            {STATUSES.map((status) => (
              <th scope="col" key={status}>
                {status}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{day.day}</th>
              <td>{day.total}</td>
              {STATUSES.map((status) => (
                <td key={status}>{day[status]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
