import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { css } from 'styled-system/css';
import * as Table from '../../../components/ui/table';
import type { DailyCount } from '../api/types';
import { CHART_HEIGHT } from './chart-size';
import { useFormat } from '../components/format';

const DEFAULT_WIDTH = 720;
const HEIGHT = CHART_HEIGHT;
const PAD = { top: 12, right: 8, bottom: 28, left: 36 };
/** Room one day label needs on the x axis (px). */
const LABEL_ROOM = 56;

/**
 * The y axis for a peak count: whole-number ticks only (sign-ins are counted, there is no 1.5 sign-in), at most
 * five of them, the top one at or above the peak.
 */
export function yAxis(peak: number): { max: number; ticks: number[] } {
  const rough = Math.max(1, peak / 4);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? 10 * magnitude;
  const max = Math.max(step, Math.ceil(Math.max(peak, 1) / step) * step);
  const ticks: number[] = [];
  for (let tick = 0; tick <= max; tick += step) ticks.push(tick);
  return { max, ticks };
}

/** The element's width in px (ResizeObserver), so the chart is drawn at the size it is shown. */
function useWidth(): [RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.round(entry?.contentRect.width ?? 0);
      if (next > 0) setWidth(next);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** Sign-ins per day as an SVG bar chart, with the same data as a table for screen readers and keyboard users. */
export function SignInChart({ data }: { data: DailyCount[] }) {
  const { t } = useLingui();
  const fmt = useFormat();
  const titleId = useId();
  const total = data.reduce((sum, d) => sum + d.count, 0);
  const peak = data.reduce<DailyCount | null>((best, d) => (best === null || d.count > best.count ? d : best), null);
  const { max, ticks } = yAxis(peak?.count ?? 0);
  const [frame, WIDTH] = useWidth();
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = data.length ? innerW / data.length : innerW;
  const barW = Math.max(2, slot * 0.7);
  // a day label every `every` days, as many as fit
  const every = Math.max(1, Math.ceil((LABEL_ROOM * data.length) / Math.max(innerW, 1)));
  const first = data[0]?.day;
  const last = data[data.length - 1]?.day;
  const summary =
    first && last
      ? t`Sign-ins per day from ${fmt.dayLong(first)} to ${fmt.dayLong(last)}: ${fmt.number(total)} in total, at most ${fmt.number(peak?.count ?? 0)} on one day.`
      : t`No data`;

  return (
    <figure className={css({ display: 'flex', flexDirection: 'column', gap: '3', m: '0' })}>
      <div className={css({ display: 'flex', gap: '6', flexWrap: 'wrap' })}>
        <div>
          <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <Trans>Sign-ins, last 30 days</Trans>
          </p>
          <p className={css({ fontSize: '2xl', fontWeight: 'semibold' })} data-testid="signins-total">
            {fmt.number(total)}
          </p>
        </div>
        <div>
          <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
            <Trans>Busiest day</Trans>
          </p>
          <p className={css({ fontSize: '2xl', fontWeight: 'semibold' })}>{peak && peak.count > 0 ? `${fmt.number(peak.count)} · ${fmt.day(peak.day)}` : '—'}</p>
        </div>
      </div>
      <div ref={frame} className={css({ width: 'full', minWidth: '0' })}>
        <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-labelledby={titleId} className={css({ width: 'full', height: 'auto', display: 'block' })}>
          <title id={titleId}>{summary}</title>
          {ticks.map((tick) => {
            const y = PAD.top + innerH - (tick / max) * innerH;
            return (
              <g key={tick} aria-hidden="true">
                <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} stroke="#e2e8f0" strokeDasharray={tick === 0 ? undefined : '3 3'} />
                <text x={PAD.left - 6} y={y + 4} textAnchor="end" fontSize="11" fill="#475569">
                  {fmt.number(tick)}
                </text>
              </g>
            );
          })}
          {data.map((d, i) => {
            const h = (d.count / max) * innerH;
            const x = PAD.left + i * slot + (slot - barW) / 2;
            return (
              <g key={d.day}>
                <rect x={x} y={PAD.top + innerH - h} width={barW} height={Math.max(h, d.count > 0 ? 2 : 0)} rx={2} fill="#1d4ed8">
                  <title>{`${fmt.day(d.day)}: ${fmt.number(d.count)}`}</title>
                </rect>
                {i % every === 0 ? (
                  <text x={x + barW / 2} y={HEIGHT - 8} textAnchor="middle" fontSize="11" fill="#475569" aria-hidden="true">
                    {fmt.day(d.day)}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <details className={css({ fontSize: 'sm' })}>
        <summary className={css({ cursor: 'pointer', color: 'accent.text', width: 'fit-content', borderRadius: 'sm', _focusVisible: { outline: '2px solid', outlineColor: 'focusRing' } })}>
          <Trans>Show data as table</Trans>
        </summary>
        <div className={css({ mt: '2', maxHeight: '64', overflowY: 'auto' })}>
          <Table.Root>
            <Table.Caption>{summary}</Table.Caption>
            <Table.Head>
              <Table.Row>
                <Table.Header>{t`Day`}</Table.Header>
                <Table.Header>{t`Sign-ins`}</Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              {data.map((d) => (
                <Table.Row key={d.day}>
                  <Table.Cell>{fmt.dayLong(d.day)}</Table.Cell>
                  <Table.Cell>{fmt.number(d.count)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </div>
      </details>
    </figure>
  );
}
