/** SPEC §2/§8: the full-page error with a Refresh button that reloads. */
export default function ServerError() {
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-2xl font-bold">Sorry, something went wrong with this service. Please refresh this page or try again later.</h1>
      <button type="button" onClick={() => window.location.reload()} className="mt-6 rounded-md bg-slate-900 px-6 py-3 font-bold text-white">
        Refresh
      </button>
    </main>
  );
}
