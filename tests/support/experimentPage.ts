/** The console's experiment page as Next asks for it: getServerSideProps for a signed-in operator. */
import type { GetServerSidePropsContext } from 'next';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import ExperimentPage from '../../pages/_console/experiments/[id]';

/** The page's props for `query`, asked with `cookie` (e.g. analystCookie's) from a console browser. */
export async function experimentPageProps<Props>(cookie: string, id: string, query: Record<string, string> = {}): Promise<Props> {
  const { getServerSideProps } = await import('../../pages/_console/experiments/[id]');
  const ctx = {
    req: { headers: { host: 'console.localhost:3000', cookie }, socket: { remoteAddress: '198.51.100.9' } },
    res: { setHeader: () => undefined, statusCode: 200 },
    query: { id, ...query },
  } as unknown as GetServerSidePropsContext;
  const result = (await getServerSideProps(ctx)) as { props: Props };
  return result.props;
}

type PageProps = Parameters<typeof ExperimentPage>[0];
type Found = NonNullable<Extract<PageProps, { found: unknown }>['found']>;

/**
 * The page's HTML for an analyst signed in as `email`, of a running experiment of `brand` on its
 * /payday-loans page shared by its written weights, with the days asked and the results given.
 */
export function experimentPageHtml(email: string, found: Pick<Found, 'id' | 'brand' | 'dates' | 'query' | 'results'>): string {
  return renderToStaticMarkup(
    createElement(ExperimentPage, {
      viewer: { email, role: 'analyst', csrf: '', may: ['overview.view'] },
      id: found.id,
      found: {
        brands: [found.brand],
        description: '',
        state: 'running',
        routes: ['/payday-loans'],
        actions: [],
        allocation: 'The written weights',
        weights: null,
        fixed: null,
        run: 'running',
        version: 0,
        here: null,
        note: '',
        noteOk: false,
        ...found,
      },
    }),
  );
}
