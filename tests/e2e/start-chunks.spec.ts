/**
 * What a production server loads for its start (instrumentation.ts → engine/frontDoor/startUp.ts),
 * read from the build the end-to-end tests run: each chunk file's source stays in memory for the
 * life of the process, and when the start's modules were imported one by one the bundler gave
 * every import its own copy of the code they share (four identical 200 KB chunks, three of 94 KB:
 * ~1.7 MiB of an idle server's heap). Every chunk file the start can load, directly or through a
 * later dynamic import, must hold code no other one holds.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const server = join(process.cwd(), '.next/server');
/** The chunk files a file names for loading (Turbopack's runtime: R.c("server/chunks/…") at the top, e.l("server/chunks/…") in a dynamic import). */
const named = (file: string) => [...readFileSync(join(server, file), 'utf8').matchAll(/"server\/(chunks\/[^"]+\.js)"/g)].map((m) => m[1]!);

test("the chunks a server's start loads hold each piece of code once", () => {
  const reachable = new Set<string>();
  const todo = named('instrumentation.js');
  while (todo.length) {
    const file = todo.pop()!;
    if (reachable.has(file) || !existsSync(join(server, file))) continue;
    reachable.add(file);
    todo.push(...named(file));
  }
  const sources = [...reachable].map((file) => readFileSync(join(server, file), 'utf8'));
  // the start's own modules are among them (else this reads a build layout it does not know)
  expect(sources.some((s) => s.includes('Not a sealed lead value'))).toBe(true);
  const byCode = new Map<string, string[]>();
  for (const [i, file] of [...reachable].entries()) {
    const code = sources[i]!.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
    const key = createHash('sha1').update(code).digest('hex');
    byCode.set(key, [...(byCode.get(key) ?? []), file]);
  }
  expect([...byCode.values()].filter((files) => files.length > 1)).toEqual([]);
});
