/**
 * The studio's calls to the console's JSON API (/api/console/studio/…, docs/engineers/studio-api.md),
 * in one place: each sends the session's CSRF token and answers what the page needs, a refusal
 * as a readable message rather than a thrown error.
 */
import type { Problem } from '../../engine/browser/studio/problemFields';

export interface Saved {
  version: number;
  savedAt: string;
  author: string;
  problems: Problem[];
}

export interface OtherSave {
  version: number;
  document: unknown;
  author: string;
  savedAt: string;
}

export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; error: string; problems?: Problem[]; current?: OtherSave };

async function call<T>(csrf: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown): Promise<Answer<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: { 'X-CSRF-Token': csrf, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, status: 0, error: 'The console cannot be reached; your edits are kept here and saved when it answers again.' };
  }
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.ok) return { ok: true, value: json as T };
  return {
    ok: false,
    status: res.status,
    error: typeof json.error === 'string' ? json.error : `The console answered ${res.status}`,
    ...(Array.isArray(json.problems) ? { problems: json.problems.filter((p): p is Problem => !!p && typeof p === 'object' && 'pointer' in p) } : {}),
    ...(json.current && typeof json.current === 'object' ? { current: json.current as OtherSave } : {}),
  };
}

const brandUrl = (id: string, rest = '') => `/api/console/studio/brands/${encodeURIComponent(id)}${rest}`;

export const studioApi = (csrf: string) => ({
  /** saves the draft over `expectedVersion`; a 409 carries the other editor's save in `current` */
  saveDraft: (id: string, document: unknown, expectedVersion: number) => call<Saved>(csrf, 'PUT', brandUrl(id, '/draft'), { document, expectedVersion }),
  /** makes a draft version live */
  publish: (id: string, version: number) => call<{ version: number }>(csrf, 'POST', brandUrl(id, '/publish'), { version }),
  /** publishes a draft version at a later time */
  schedule: (id: string, version: number, at: string) => call<{ at: string }>(csrf, 'POST', brandUrl(id, '/schedule'), { version, at }),
  /** publishes an earlier version again, as a new one */
  restore: (id: string, version: number) => call<{ version: number }>(csrf, 'POST', brandUrl(id, '/restore'), { version }),
  /** one version's document (for the history's diff) */
  version: (id: string, version: number) => call<{ document: unknown }>(csrf, 'GET', brandUrl(id, `/versions/${version}`)),
  /** the new-brand questions checked so far: problems by question */
  check: (answers: Record<string, unknown>) => call<{ problems: Problem[] }>(csrf, 'POST', '/api/console/studio/check', answers),
  /** a new brand's draft from the questions' answers */
  create: (answers: Record<string, unknown>) => call<{ id: string; version: number }>(csrf, 'POST', '/api/console/studio/brands', answers),
  /** a signed address of the draft's page for the preview frames */
  previewUrl: (brand: string, path: string) => call<{ url: string; expiresAt: string }>(csrf, 'POST', '/api/console/studio-preview', { brand, path }),
});

export type StudioApi = ReturnType<typeof studioApi>;
