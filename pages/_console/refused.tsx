/**
 * Where a console form post a browser sent is shown as refused, for what its page could not show
 * (engine/console/formRefusals.ts): the page had expired (no or a wrong CSRF token), or the
 * operator's role does not allow the action (it changed while the page was open, or the form was
 * made by hand), or the operator's account may not change the form's brand (an editor limited to
 * other brands). Answered 403; nothing was changed. The page says only its own words: the reason
 * and the role come from its tables, and the way back only to one of the console's own pages.
 */
import type { GetServerSideProps } from 'next';
import { ConsoleLayout, linkClass } from '../../blocks/console/ConsoleLayout';
import { mayActOn } from '../../engine/console/experimentActions';
import { refusedText } from '../../engine/console/formRefusals';
import { consolePage, queryText, type ConsoleProps } from '../../engine/console/pages';
import { BRAND_ID } from '../../engine/console/roles';
import { RETURN_MAX, returnPath } from '../../engine/console/returnTo';

export const config = { unstable_runtimeJS: false };

type Props = ConsoleProps<{ heading: string; lines: string[]; back: string }>;

/**
 * A console page's address to link back to (its query too: an experiment's page names its brand), or
 * the overview: kept as a return address is (engine/console/returnTo.ts), never another host, the API or a made-up path.
 */
const consolePagePath = (path: string): string => returnPath(path) ?? '/';

export const getServerSideProps: GetServerSideProps<Props> = (ctx) =>
  consolePage(ctx, 'overview.view', async (db, viewer) => {
    ctx.res.statusCode = 403;
    const query = { why: queryText(ctx.query.why), permission: queryText(ctx.query.permission), brand: queryText(ctx.query.brand) };
    const brandAllowed = query.why !== 'brand' || !BRAND_ID.test(query.brand) || (await mayActOn(db, viewer, query.brand));
    const { why, heading, lines } = refusedText(query, viewer.role, brandAllowed);
    // a role's or a brand's refusal goes back to the overview (the form's page is not for them); an expired form, to its page
    return { heading, lines, back: why === 'expired' ? consolePagePath(queryText(ctx.query.back, RETURN_MAX + 1)) : '/' };
  });

export default function RefusedPage(props: Props) {
  if (props.forbidden) return <ConsoleLayout title="Nothing was changed" viewer={props.viewer} forbidden />;
  return (
    <ConsoleLayout title={props.heading} viewer={props.viewer}>
      <div role="alert" className="mb-4 max-w-2xl">
        {props.lines.map((l) => (
          <p key={l} className="mb-2">
            {l}
          </p>
        ))}
      </div>
      <a href={props.back} className={linkClass}>
        {props.back === '/' ? 'Go to the overview' : 'Open the page again'}
      </a>
    </ConsoleLayout>
  );
}
