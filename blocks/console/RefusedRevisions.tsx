/**
 * The console's alert of published brand revisions left out because they do not build: shown on
 * the brands list, the studio's list and the brand's own studio page, so the operator learns why
 * a site went back to its file (or stopped answering) and what to do, not only the server's log.
 */
import type { RefusedNotice } from '../../engine/console/refusedRevisions';
import { linkClass, Said } from './ConsoleLayout';

const when = (iso: string) => iso.replace('T', ' ').slice(0, 16) + ' UTC';

/** What serves while the revision is left out. */
const insteadText = (n: RefusedNotice) =>
  n.instead === 'file'
    ? 'Its file in brands/, as this deploy shipped it, applies instead.'
    : 'This brand is not served: it has no file that builds to fall back on, so its hosts answer as for no brand.';

/** Where the alert stands: a list of brands, the brand's editor, or its editor for a role that may only look. */
export type RefusedWhere = 'list' | 'editor' | 'read-only';

function Notice({ notice: n, where }: { notice: RefusedNotice; where: RefusedWhere }) {
  return (
    <>
      <p>
        <strong>
          <Said text={n.name} /> ({n.id}): the published version {n.version} is not applied since the deploy
        </strong>{' '}
        (published {when(n.publishedAt)}): it does not build with this deploy&apos;s layouts, blocks and checks. {insteadText(n)}
      </p>
      <ul className="list-disc pl-5">
        {n.problems.map((p, i) => (
          <li key={i}>
            <Said text={p.message} />
            {p.where && (
              <>
                {' '}
                <span className="text-sm text-slate-700">
                  (at{' '}
                  <code>
                    <Said text={p.where} />
                  </code>
                  )
                </span>
              </>
            )}
          </li>
        ))}
        {n.more > 0 && <li>{n.more === 1 ? 'and 1 more problem' : `and ${n.more} more problems`}, all listed in the studio</li>}
      </ul>
      <p>
        {where === 'editor' ? (
          'To serve it again: fix these problems in the editor below, then publish: the fixed version applies on every instance within seconds.'
        ) : where === 'read-only' ? (
          'To serve it again, an admin or an editor of this brand fixes these problems here in the studio, then publishes: the fixed version applies on every instance within seconds.'
        ) : (
          <>
            To serve it again: open it in the studio, fix these problems, then publish: the fixed version applies on every instance within seconds.{' '}
            <a href={`/studio/${n.id}`} className={linkClass}>
              {`Fix ${n.id} in the studio`}
            </a>
          </>
        )}
      </p>
    </>
  );
}

/** The alert, or nothing when no published revision is left out. */
export function RefusedRevisions({ notices, where = 'list' }: { notices: readonly RefusedNotice[]; where?: RefusedWhere }) {
  if (!notices.length) return null;
  const single = notices.length === 1;
  return (
    <section aria-labelledby="refused-revisions" className="mb-6 rounded border border-red-700 bg-red-50 p-3" data-testid="refused-revisions">
      <h2 id="refused-revisions" className="mb-1 text-lg font-semibold text-red-800">
        {single ? 'A published version is not applied' : `${notices.length} published versions are not applied`}
      </h2>
      {single ? (
        <Notice notice={notices[0]!} where={where} />
      ) : (
        <ul className="flex flex-col gap-3">
          {notices.map((n) => (
            <li key={n.id}>
              <Notice notice={n} where={where} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
