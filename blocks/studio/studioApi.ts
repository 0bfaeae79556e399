/**
 * The studio's calls to the console's JSON API (/api/console/studio/…, docs/engineers/studio-api.md),
 * in one place: each sends the session's CSRF token and answers what the page needs, a refusal
 * as a readable message rather than a thrown error.
 */
import type { Problem } from '../../engine/browser/studio/problemFields';

export interface Saved {
  version: number;
  savedAt: string;
  problems: Problem[];
  /** what does not hold the draft back but should be settled before publishing (another draft claiming a host) */
  warnings?: Problem[];
}

export interface OtherSave {
  version: number;
  document: unknown;
  author: string;
  savedAt: string;
}

/** A refused answer's problems: the brand's (with a pointer) or the new-brand questions' (with the question). */
export type AnswerProblem = Problem & { question?: string };

export type Answer<T> = { ok: true; value: T } | { ok: false; status: number; error: string; problems?: AnswerProblem[]; current?: OtherSave };

async function call<T>(csrf: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, raw?: Blob): Promise<Answer<T>> {
  let res: Response;
  try {
    const type = raw ? raw.type : body === undefined ? undefined : 'application/json';
    res = await fetch(url, {
      method,
      headers: { 'X-CSRF-Token': csrf, ...(type ? { 'Content-Type': type } : {}) },
      ...(raw ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
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
    ...(Array.isArray(json.problems)
      ? {
          problems: json.problems.flatMap((p): AnswerProblem[] => {
            if (!p || typeof p !== 'object') return [];
            const q = p as { pointer?: unknown; question?: unknown; message?: unknown };
            if (typeof q.message !== 'string') return [];
            return [
              {
                ...(p as Problem),
                pointer: typeof q.pointer === 'string' ? q.pointer : '',
                ...(typeof q.question === 'string' ? { question: q.question } : {}),
              },
            ];
          }),
        }
      : {}),
    ...(json.current && typeof json.current === 'object' ? { current: json.current as OtherSave } : {}),
  };
}

const brandUrl = (id: string, rest = '') => `/api/console/studio/brands/${encodeURIComponent(id)}${rest}`;

export const studioApi = (csrf: string) => ({
  /** the brand as the editor opens it: its newest document and the draft version to save over */
  brand: (id: string) => call<{ document: Record<string, unknown>; version: number }>(csrf, 'GET', brandUrl(id)),
  /** saves the draft over `expectedVersion`; a 409 carries the other editor's save in `current` */
  saveDraft: (id: string, document: unknown, expectedVersion: number) => call<Saved>(csrf, 'PUT', brandUrl(id, '/draft'), { document, expectedVersion }),
  /** makes a draft version live; 422 with the problems while it has any */
  publish: (id: string, version: number) => call<{ publishedVersion: number }>(csrf, 'POST', brandUrl(id, '/publish'), { version }),
  /** publishes a draft version at a later time */
  schedule: (id: string, version: number, at: string) =>
    call<{ publishedVersion: number; scheduledAt: string }>(csrf, 'POST', brandUrl(id, '/publish'), { version, at }),
  /** publishes an earlier version again, as a new one */
  restore: (id: string, version: number) => call<{ publishedVersion: number; version: number }>(csrf, 'POST', brandUrl(id, '/restore'), { version }),
  /** one answer of the new-brand questions, checked with the answers so far */
  check: (question: string, value: string, answers: Record<string, string>) =>
    call<{ ok: boolean; message?: string; warning?: string }>(csrf, 'POST', '/api/console/studio/check', { question, value, answers }),
  /** a new brand's draft from the questions' answers */
  create: (answers: Record<string, string>) =>
    call<{ id: string; version: number; problems: Problem[] }>(csrf, 'POST', '/api/console/studio/brands', { answers }),
  /** an SVG or PNG logo stored for the brand; its address goes in organization.logo */
  logo: (id: string, file: Blob) => call<{ src: string }>(csrf, 'POST', brandUrl(id, '/logo'), undefined, file),
  /** a signed address of the draft's page for the preview frames */
  previewUrl: (brand: string, path: string) => call<{ url: string; expiresAt: string }>(csrf, 'POST', '/api/console/studio-preview', { brand, path }),
});

export type StudioApi = ReturnType<typeof studioApi>;
