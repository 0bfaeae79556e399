/**
 * SPEC §2/§8: the full-page error with a Refresh button that reloads.
 * Shipped without Next's client runtime: hydrating a static error page behind a proxy makes
 * Next's router re-fetch the failed page's data and reload in a loop. Refresh is a link with
 * an empty href: it resolves to the page's own address, query string included, and reloads it
 * with or without JavaScript (a GET form would drop the query).
 */
export const config = { unstable_runtimeJS: false };

export default function ServerError() {
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-2xl font-bold">Sorry, something went wrong with this service. Please refresh this page or try again later.</h1>
      {/* eslint-disable-next-line jsx-a11y/anchor-is-valid -- an empty href reloads this very address, query included (holes.spec) */}
      <a href="" className="mt-6 inline-block min-h-11 rounded-md bg-slate-900 px-6 py-3 font-bold text-white">
        Refresh
      </a>
    </main>
  );
}
