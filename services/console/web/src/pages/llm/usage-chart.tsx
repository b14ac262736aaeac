/** One usage metric per day as a uPlot line chart, a line per model; the numbers themselves are in the tables beside it. */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { Metric, UsageSeries } from './usage-series';

const COLOURS = ['#0b57d0', '#b3261e', '#146c2e', '#8a4b08', '#6a1b9a', '#00695c', '#ad1457', '#37474f'];
const HEIGHT = 220;

/** The colour of the model at this index, the same in every chart and in the legend table. */
export const colourOf = (index: number) => COLOURS[index % COLOURS.length];

export function UsageChart(props: {
  title: string;
  series: UsageSeries;
  metric: Metric;
  format(value: number): string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const { series, metric, format } = props;
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const seconds = series.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: HEIGHT,
        legend: { show: false },
        // The days are UTC days, as the service sums them.
        tzDate: (at) => uPlot.tzDate(new Date(at * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_chart, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        series: [
          {},
          ...series.models.map((model, i) => ({
            label: model,
            stroke: colourOf(i),
            width: 2,
            points: { show: true, size: 6 },
          })),
        ],
        axes: [{}, { size: 72, values: (_chart, splits) => splits.map(format) }],
      },
      [seconds, ...series.values[metric]],
      element,
    );
    // A phone turned, a window narrowed: the chart follows its box.
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [series, metric, format]);
  const range = `${series.days[0]} to ${series.days[series.days.length - 1]}`;
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <div
        ref={box}
        role="img"
        aria-label={`${props.title}, one line per model (${series.models.join(', ')}), UTC days ${range}. The figures are in the tables below.`}
        data-testid={`chart-${metric}`}
      />
    </figure>
  );
}
