/**
 * The compiled front door (scripts/build-front-door.ts) is loaded by every server and its source
 * stays in memory for the life of the process. V8 keeps a script's source one byte per character
 * only while every character is at most U+00FF: one curly quote in a regular expression made it
 * two bytes per character (~280 KB more held by an idle server). Characters above U+00FF are
 * written as escapes in the engine's code.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildFrontDoor } from '../../scripts/build-front-door';

const dir = mkdtempSync(join(tmpdir(), 'loansites-front-door-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('the compiled front door has no character above U+00FF', async () => {
  const file = join(dir, 'front-door.mjs');
  await buildFrontDoor(file);
  const text = readFileSync(file, 'utf8');
  const wide = [...text].flatMap((ch, i) => (ch.codePointAt(0)! > 0xff ? [`${JSON.stringify(ch)} in …${text.slice(Math.max(0, i - 40), i + 10)}…`] : []));
  expect(wide).toEqual([]);
}, 60_000);
