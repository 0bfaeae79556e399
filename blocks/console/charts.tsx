/**
 * The console's charts, drawn as SVG on the server: a bar per funnel stage, and visits and sales
 * per day. No charting library: the console runs no script (its CSP allows none), the two
 * charts are a few rectangles, and every number is also in a table next to them for screen
 * readers and for copying. Colours are SVG attributes, not style attributes (the policy allows no
 * inline style).
 */
import { num, share } from './format';

const STAGE_LABELS: Record<string, string> = {
  visits: 'Visits',
  applyViews: 'Apply page views',
  step1: 'Form step 1',
  step2: 'Form step 2',
  submitted: 'Submitted',
  stored: 'Stored leads',
  sold: 'Sold',
};
export const stageLabel = (stage: string): string => STAGE_LABELS[stage] ?? stage;

/**
 * What a stage counts: the form's stages once per visit, but every lead stored and sold — a visit
 * may store two leads and sell both, so stored leads are compared with sold ones, and "stored" may
 * exceed the visits that submitted.
 */
export const stageUnit = (stage: string): 'visits' | 'leads' => (stage === 'stored' || stage === 'sold' ? 'leads' : 'visits');

/**
 * The funnel table's rows: each stage's count, its share of the stage before and of visits — "—"
 * where that stage or the visits are 0 (an empty range, or a campaign that only cost money) — and
 * what it counts (stageUnit).
 */
export function funnelRows(stages: readonly { stage: string; count: number }[]): string[][] {
  const visits = stages[0]?.count ?? 0;
  return stages.map((s, i) => [
    stageLabel(s.stage),
    num(s.count),
    share(s.count, i === 0 ? s.count : stages[i - 1]!.count),
    share(s.count, visits),
    stageUnit(s.stage),
  ]);
}

export function FunnelChart({ stages }: { stages: { stage: string; count: number }[] }) {
  const max = Math.max(1, ...stages.map((s) => s.count));
  const rowH = 28;
  const labelW = 150;
  const barW = 420;
  return (
    <svg role="img" aria-labelledby="funnel-chart-title" viewBox={`0 0 ${labelW + barW + 150} ${stages.length * rowH + 8}`} className="mb-6 w-full max-w-3xl">
      <title id="funnel-chart-title">{`The funnel: ${stages.map((s) => `${stageLabel(s.stage)} ${num(s.count)}`).join(', ')}`}</title>
      {stages.map((s, i) => {
        const w = Math.max(s.count > 0 ? 2 : 0, Math.round((s.count / max) * barW));
        const y = i * rowH + 4;
        return (
          <g key={s.stage}>
            <text x={labelW - 8} y={y + 17} textAnchor="end" fontSize="13" fill="#0f172a">
              {stageLabel(s.stage)}
            </text>
            <rect x={labelW} y={y} width={w} height={rowH - 8} fill="#1e40af" />
            <text x={labelW + w + 6} y={y + 17} fontSize="13" fill="#0f172a">
              {`${num(s.count)} (${share(s.count, stages[0]!.count)})`}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export function DailyChart({ points, unit = 'day' }: { points: { at: string; visits: number; stored: number; sold: number }[]; unit?: string }) {
  const W = 720;
  const H = 180;
  const pad = 28;
  const max = Math.max(1, ...points.map((p) => p.visits));
  const step = points.length ? (W - pad * 2) / points.length : 0;
  const y = (v: number) => H - pad - (v / max) * (H - pad * 2);
  return (
    <svg role="img" aria-labelledby="daily-chart-title" viewBox={`0 0 ${W} ${H}`} className="mb-2 w-full max-w-3xl">
      <title id="daily-chart-title">{`Visits (bars) and sales (dots) per ${unit}, ${points.length} ${unit}s, at most ${num(max)} visits a ${unit}`}</title>
      <line x1={pad} y1={H - pad} x2={W - pad} y2={H - pad} stroke="#334155" />
      <text x={pad} y={14} fontSize="12" fill="#0f172a">
        {`max ${num(max)} visits/${unit}`}
      </text>
      {points.map((p, i) => (
        <g key={p.at}>
          <rect x={pad + i * step + 1} y={y(p.visits)} width={Math.max(1, step - 2)} height={H - pad - y(p.visits)} fill="#93c5fd" />
          <circle cx={pad + i * step + step / 2} cy={y(Math.min(p.sold, max))} r={3} fill="#b91c1c" />
        </g>
      ))}
      {points.length > 0 && (
        <>
          <text x={pad} y={H - 8} fontSize="12" fill="#0f172a">
            {points[0]!.at}
          </text>
          <text x={W - pad} y={H - 8} fontSize="12" textAnchor="end" fill="#0f172a">
            {points[points.length - 1]!.at}
          </text>
        </>
      )}
    </svg>
  );
}
