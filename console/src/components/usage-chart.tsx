import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { DailyUsage } from '../api.js';
import { count } from '../format.js';
import { Table } from './common.js';

const HEIGHT = 220;

/**
 * Requests and refusals per day (uPlot, drawn on a canvas), with the same figures in
 * a table below it for those who do not see the chart.
 */
export function UsageChart({ title, days }: { title: string; days: readonly DailyUsage[] }) {
  const holder = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const x = days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000);
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
        axes: [{}, { size: 60 }],
        series: [
          { label: 'Day (UTC)' },
          { label: 'Requests', stroke: '#1d4ed8', width: 2, points: { show: true } },
          { label: 'Refused (429)', stroke: '#b91c1c', width: 2, points: { show: true } },
        ],
      },
      [x, days.map((day) => day.requests), days.map((day) => day.refused)],
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(280, element.clientWidth), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days]);
  const total = days.reduce((sum, day) => sum + day.requests, 0);
  const refused = days.reduce((sum, day) => sum + day.refused, 0);
  return (
    <figure class="chart">
      <figcaption>
        {title}: {count(total)} requests, {count(refused)} refused
      </figcaption>
      <div
        ref={holder}
        class="chart-canvas"
        role="img"
        aria-label={`${title}: chart of requests and refusals per day`}
      />
      <details>
        <summary>The figures</summary>
        <Table caption={`${title}: requests and refusals per day`}>
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              <th scope="col">Requests</th>
              <th scope="col">Refused</th>
              <th scope="col">Bans</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{day.date}</td>
                <td>{count(day.requests)}</td>
                <td>{count(day.refused)}</td>
                <td>{count(day.bans)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </details>
    </figure>
  );
}

/** Rows of several keys (GET /admin/usage) summed per day, every day of the range present. */
export function perDay(
  rows: readonly { date: string; requests: number; refused: number; bans: number }[],
  from: string,
  to: string,
): DailyUsage[] {
  const days = new Map<string, DailyUsage>();
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    days.set(date, { date, requests: 0, refused: 0, bans: 0 });
  }
  for (const row of rows) {
    const day = days.get(row.date);
    if (day)
      days.set(row.date, {
        ...day,
        requests: day.requests + row.requests,
        refused: day.refused + row.refused,
        bans: day.bans + row.bans,
      });
  }
  return [...days.values()];
}
