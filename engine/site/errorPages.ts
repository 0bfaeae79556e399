/** Tiny self-contained HTML pages for answers decided before any brand page renders (engine/frontDoor/answers.ts). */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A page with a title (escaped here) and a body the caller has escaped. */
export const plainHtml = (title: string, bodyHtml: string): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#0f172a}</style></head><body><main>${bodyHtml}</main></body></html>`;
