/** Restore an earlier version in one action, or publish a draft at a set time: the history page's two changes. */
import { useMemo, useState } from 'react';
import { controlClass, smallButton } from './FieldView';
import { studioApi, type AnswerProblem } from './studioApi';
import { useHydrated } from '../chrome/useHydrated';

export function HistoryActions(props: { id: string; csrf: string; versions: { version: number; published: boolean }[] }) {
  const api = useMemo(() => studioApi(props.csrf), [props.csrf]);
  const [note, setNote] = useState('');
  // what stops a version being published or restored, each at its field (as the editor lists them)
  const [problems, setProblems] = useState<AnswerProblem[]>([]);
  const [restoreVersion, setRestoreVersion] = useState(String(props.versions.find((v) => v.published)?.version ?? props.versions[0]?.version ?? ''));
  const [draftVersion, setDraftVersion] = useState(String(props.versions[0]?.version ?? ''));
  const [at, setAt] = useState('');
  // the buttons work once the page's script runs
  const ready = useHydrated();
  const restore = async () => {
    setNote('Restoring…');
    setProblems([]);
    const a = await api.restore(props.id, Number(restoreVersion));
    if (!a.ok) setProblems(a.problems ?? []);
    setNote(a.ok ? `Version ${restoreVersion} is live again, as version ${a.value.publishedVersion}.` : `Not restored: ${a.error}`);
  };
  const schedule = async () => {
    const time = new Date(at);
    if (Number.isNaN(time.getTime())) return (setProblems([]), setNote('Give the day and time to publish at.'));
    // the server publishes at once a time that has passed: a slip of the year or the hour would
    // put a version live now, when a later publication was asked for
    if (time.getTime() <= Date.now())
      return (setProblems([]), setNote(`Not set: ${time.toLocaleString()} has passed. Give a time ahead (to publish now, use Publish in the editor).`));
    setNote('Setting…');
    setProblems([]);
    const a = await api.schedule(props.id, Number(draftVersion), time.toISOString());
    if (!a.ok) setProblems(a.problems ?? []);
    setNote(
      !a.ok
        ? `Not set: ${a.error}`
        : a.value.scheduledAt
          ? `Version ${draftVersion} will be published at ${new Date(a.value.scheduledAt).toLocaleString()}.`
          : // the time came while the request was on its way: it is live already
            `Version ${draftVersion} is published now.`,
    );
  };
  return (
    <section aria-labelledby="history-actions" className="mt-6 flex flex-col gap-4" data-studio-ready={ready ? '' : undefined}>
      <h2 id="history-actions" className="text-xl font-bold">
        Restore or schedule
      </h2>
      <div className="flex flex-wrap items-end gap-2">
        <VersionSelect label="Version to restore" value={restoreVersion} onChange={setRestoreVersion} versions={props.versions} />
        <button type="button" className={smallButton} onClick={restore} disabled={!ready}>
          Restore this version
        </button>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <VersionSelect label="Draft to publish" value={draftVersion} onChange={setDraftVersion} versions={props.versions} />
        <label className="flex flex-col text-sm">
          Publish at (your time)
          <input type="datetime-local" className={controlClass} value={at} onChange={(e) => setAt(e.target.value)} />
        </label>
        <button type="button" className={smallButton} onClick={schedule} disabled={!ready}>
          Publish at this time
        </button>
      </div>
      <div role="status">
        <p>{note}</p>
        {problems.length > 0 && (
          <ul className="list-disc pl-6">
            {problems.map((p, i) => (
              <li key={i}>
                {p.message}
                {p.pointer ? ` (${p.pointer})` : ''}
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/** A saved version to act on, the published ones marked. */
function VersionSelect(props: { label: string; value: string; onChange: (v: string) => void; versions: { version: number; published: boolean }[] }) {
  return (
    <label className="flex flex-col text-sm">
      {props.label}
      <select className={controlClass} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {props.versions.map((v) => (
          <option key={v.version} value={v.version}>
            {`version ${v.version}${v.published ? ' (was published)' : ''}`}
          </option>
        ))}
      </select>
    </label>
  );
}
