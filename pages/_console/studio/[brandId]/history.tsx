/**
 * A brand's history in the studio: every saved version, the published ones with who published them
 * and when; the changes between any two, field by field (engine/browser/studio/brandDiff.ts);
 * restoring one in one action and publishing a draft at a set time (blocks/studio/HistoryActions.tsx).
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, DataTable, inputClass, buttonClass, linkClass } from '../../../../blocks/console/ConsoleLayout';
import { HistoryActions } from '../../../../blocks/studio/HistoryActions';
import { diffBrands, type FieldChange } from '../../../../engine/browser/studio/brandDiff';
import { consolePage, consoleRequestOf, queryText, type ConsoleProps } from '../../../../engine/console/pages';
import { mayEditHere } from '../../../../engine/console/studioPages';
import { brandHistory, brandRevision, brandSchedule, refusedBrandSchedule, type BrandHistoryEntry } from '../../../../engine/store/brandRevisions';

type Props = ConsoleProps<{
  id: string;
  entries: BrandHistoryEntry[];
  a: number;
  b: number;
  changes: FieldChange[] | null;
  scheduled: { version: number; at: string } | null;
  scheduleRefused: { version: number; at: string; reason: string } | null;
  canEdit: boolean;
}>;

const when = (iso?: string) => (iso ? iso.replace('T', ' ').slice(0, 16) + ' UTC' : '');

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'studio.view', async (db) => {
    const id = typeof ctx.params?.brandId === 'string' ? ctx.params.brandId : '';
    const entries = await brandHistory(db, id);
    const newest = entries[0]?.version ?? 0;
    const pick = (q: string, fallback: number) => (/^\d{1,9}$/.test(q) ? Number(q) : fallback);
    const b = pick(queryText(ctx.query.b), newest);
    const a = pick(queryText(ctx.query.a), entries[1]?.version ?? 0);
    const [ra, rb] = await Promise.all([brandRevision(db, id, a), brandRevision(db, id, b)]);
    const [schedule, refused] = await Promise.all([brandSchedule(db, id), refusedBrandSchedule(db, id)]);
    return {
      id,
      entries,
      a,
      b,
      changes: ra && rb ? diffBrands(ra.document, rb.document) : null,
      scheduled: schedule ? { version: schedule.version, at: schedule.at } : null,
      scheduleRefused: refused ? { version: refused.version, at: refused.at, reason: refused.reason } : null,
      canEdit: await mayEditHere(db, consoleRequestOf(ctx), id),
    };
  });

export default function StudioHistory(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="History" viewer={props.viewer} forbidden />;
  const versions = [0, ...props.entries.map((e) => e.version)].sort((x, y) => y - x);
  const label = (v: number) => (v === 0 ? 'the file' : `version ${v}`);
  return (
    <ConsoleLayout title={`History of ${props.id}`} viewer={props.viewer} current="/studio">
      <p className="mb-4">
        <a href={`/studio/${props.id}`} className={linkClass}>
          Back to the editor
        </a>
      </p>
      {props.scheduled && (
        <p className="mb-4">
          Version {props.scheduled.version} is set to be published at {when(props.scheduled.at)}.
        </p>
      )}
      {props.scheduleRefused && (
        <p className="mb-4 rounded border-l-4 border-red-700 bg-red-50 p-3 text-red-900">
          Version {props.scheduleRefused.version} was set to be published at {when(props.scheduleRefused.at)} and was not: {props.scheduleRefused.reason}.
          Correct the draft and publish it again.
        </p>
      )}
      <DataTable
        caption="Saved versions, newest first"
        head={['Version', 'Saved by', 'Saved at', 'Published']}
        numeric={[true, false, false, false]}
        rows={props.entries.map((e) => [
          String(e.version),
          e.author,
          when(e.savedAt),
          e.published ? `by ${e.publishedBy ?? ''}, ${when(e.publishedAt)}` : 'draft',
        ])}
      />
      <h2 className="mt-6 text-xl font-bold">Compare two versions</h2>
      <form method="get" className="my-3 flex flex-wrap items-end gap-3">
        {(['a', 'b'] as const).map((k) => (
          <label key={k} className="flex flex-col text-sm">
            {k === 'a' ? 'From' : 'To'}
            <select name={k} defaultValue={String(props[k])} className={inputClass}>
              {versions.map((v) => (
                <option key={v} value={v}>
                  {label(v)}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit" className={buttonClass}>
          Compare
        </button>
      </form>
      {props.changes === null ? (
        <p>Choose two saved versions to compare.</p>
      ) : props.changes.length === 0 ? (
        <p>
          {label(props.a)} and {label(props.b)} are the same.
        </p>
      ) : (
        <DataTable
          caption={`What changed from ${label(props.a)} to ${label(props.b)}`}
          head={['Field', 'Change', 'Before', 'After']}
          rows={props.changes.map((c) => [c.label, c.kind, c.before || '—', c.after || '—'])}
        />
      )}
      {props.canEdit && (
        <HistoryActions id={props.id} csrf={props.viewer.csrf} versions={props.entries.map((e) => ({ version: e.version, published: e.published }))} />
      )}
    </ConsoleLayout>
  );
}
