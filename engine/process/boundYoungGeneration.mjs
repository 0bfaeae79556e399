// @ts-check
// Imported by server.mjs right after the Node check, before anything heavy loads: a process
// started without the settings that only count at start (the semi-space bound, youngGeneration.mjs;
// the memory settings, memorySettings.mjs) replaces itself with one that has them.
import process from 'node:process';
import { memorySettingsToApply } from './memorySettings.mjs';
import { semiSpaceToApply } from './youngGeneration.mjs';

const mb = semiSpaceToApply(process.env, process.execArgv);
const memory = memorySettingsToApply(process.env, process.execArgv);
const flags = [...(mb === undefined ? [] : [`--max-semi-space-size=${mb}`]), ...memory.flags];
if ((flags.length || Object.keys(memory.env).length) && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, ...memory.env });
}
