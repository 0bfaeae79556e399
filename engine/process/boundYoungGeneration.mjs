// @ts-check
// Imported by server.mjs right after the Node check, before anything heavy loads: a process
// started without the semi-space flag replaces itself with one that has it (youngGeneration.mjs).
import process from 'node:process';
import { semiSpaceToApply } from './youngGeneration.mjs';

const mb = semiSpaceToApply(process.env, process.execArgv);
if (mb !== undefined && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, `--max-semi-space-size=${mb}`, ...process.execArgv, ...process.argv.slice(1)], process.env);
}
