/** The studio's policies: its editor runs only our own script, its preview none and is framed by our origin only; the rest of the console is unchanged. */
import { describe, expect, it } from 'vitest';
import { AFTER_PAINT_SCRIPT } from '../../engine/browser/afterPaintScript.mjs';
import { chunkBootstrapScript, CONSOLE_POLICY, consoleArea, sha256Source, STUDIO_PREVIEW_POLICY, studioPolicy } from '../../engine/site/csp.mjs';

const directives = (policy: string): Record<string, string[]> => Object.fromEntries(policy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));

describe("the studio's content security policies", () => {
  it('tells the editor, the preview and the rest of the console apart by the internal URL', () => {
    expect(consoleArea('/_console/studio')).toBe('studio');
    expect(consoleArea('/_console/studio/acme/history?x=1')).toBe('studio');
    expect(consoleArea('/_console/studio-preview/acme?path=/&token=x')).toBe('preview');
    expect(consoleArea('/_console/studios')).toBe('console');
    expect(consoleArea('/_console/brands')).toBe('console');
    expect(consoleArea('/api/console/studio-preview')).toBe('console');
    expect(consoleArea(undefined)).toBe('console');
  });

  it("lets the editor run our origin's chunks, the after-paint loader and the given bootstraps, nothing inline otherwise, and frame only our origin", () => {
    const boot = chunkBootstrapScript([
      { otherChunks: ['static/chunks/app.js'], runtimeModuleIds: [1] },
      { otherChunks: ['static/chunks/a.js'], runtimeModuleIds: [1, 2] },
    ]);
    // as Turbopack writes it into a page: _app's group, then the page's, one line each
    expect(boot).toBe(
      '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/app.js"],"runtimeModuleIds":[1]});\n' +
        '(globalThis["TURBOPACK"] || (globalThis["TURBOPACK"] = [])).push({"otherChunks":["static/chunks/a.js"],"runtimeModuleIds":[1,2]});',
    );
    const d = directives(studioPolicy([sha256Source(boot)]));
    expect(d['script-src']).toEqual(["'self'", sha256Source(AFTER_PAINT_SCRIPT), sha256Source(boot)]);
    expect(d['frame-src']).toEqual(["'self'"]);
    expect(d['frame-ancestors']).toEqual(["'none'"]);
    expect(d['connect-src']).toEqual(["'self'"]);
    expect(studioPolicy([])).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:/);
  });

  it('lets the preview run nothing, and be framed by our origin only', () => {
    const d = directives(STUDIO_PREVIEW_POLICY);
    expect(d['script-src']).toEqual(["'none'"]);
    expect(d['frame-ancestors']).toEqual(["'self'"]);
    expect(d['connect-src']).toEqual(["'none'"]);
  });

  it('leaves the other console pages without any script', () => {
    expect(directives(CONSOLE_POLICY)['script-src']).toEqual(["'none'"]);
    expect(directives(CONSOLE_POLICY)['frame-ancestors']).toEqual(["'none'"]);
  });
});
