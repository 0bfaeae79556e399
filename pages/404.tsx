/** Only reached for paths outside any brand (brand paths get their brand's own 404 page). */
export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="text-2xl font-bold">Page not found</h1>
    </main>
  );
}
