// @ts-check
/**
 * Next's config module (next/dist/server/config.js, required by `next` itself and by its router)
 * requires, as it is loaded, the code that reads and checks a next.config file: zod and its error
 * formatter (the config's schema), commander (through server/lib/utils.js, also required by
 * start-server.js) and the tsconfig reader with comment-json (to compile a next.config.ts); and
 * start-server.js requires the start banner's module (app-info-log.js), which builds the whole
 * config schema with zod as it loads and pulls in `next test`'s TypeScript set-up with comment-json
 * again. A production server.mjs hands Next the configuration the build resolved
 * (__NEXT_PRIVATE_STANDALONE_CONFIG) and prints its own banner, so none of that code ever runs,
 * yet it stayed loaded for the life of the process.
 *
 * Each of those modules is put in Node's module cache as a stand-in before Next is imported: an
 * object whose first use loads the real module (through the same require, the stand-in taken out
 * of the cache first) and answers from it from then on. The modules that require them take the
 * stand-in without reading it at load (a plain `require`, read inside functions): Next's code
 * that would use them (a config that is read and checked, development, `next build`) still gets the
 * real module, only later.
 */
import { createRequire, Module } from 'node:module';

/**
 * The modules, as package paths. loadTsConfig.js stands for comment-json: it requires comment-json
 * through an interop helper that copies every export at load, so the module above it is deferred;
 * app-info-log.js for the config schema and `next test`'s set-up.
 */
export const NEXT_CONFIG_MODULES = [
  'next/dist/server/lib/app-info-log.js',
  'next/dist/compiled/zod',
  'next/dist/compiled/zod-validation-error',
  'next/dist/compiled/commander',
  'next/dist/lib/typescript/loadTsConfig.js',
];

/**
 * Puts the stand-ins in the module cache (a module already loaded is left as it is); returns the
 * resolved files stood in for.
 * @param {string} [root] where `next` is resolved from
 */
export function deferNextConfigModules(root = process.cwd()) {
  const require = createRequire(`${root}/package.json`);
  const deferred = [];
  for (const name of NEXT_CONFIG_MODULES) {
    let file;
    try {
      file = require.resolve(name);
    } catch {
      continue;
    }
    if (require.cache[file]) continue;
    const target = {};
    /** @type {any} */
    let real;
    const load = () => {
      if (real === undefined) {
        delete require.cache[file];
        real = require(file);
        // what an object with its own properties answers (keys, descriptors) is the real module's from now on
        Object.defineProperties(target, Object.getOwnPropertyDescriptors(real));
      }
      return real;
    };
    const standIn = new Module(file);
    standIn.filename = file;
    standIn.loaded = true;
    standIn.exports = new Proxy(target, {
      get: (_, key) => load()[key],
      has: (_, key) => key in load(),
      ownKeys: () => (load(), Reflect.ownKeys(target)),
      getOwnPropertyDescriptor: (_, key) => (load(), Reflect.getOwnPropertyDescriptor(target, key)),
      set: (_, key, value) => Reflect.set(load(), key, value),
    });
    require.cache[file] = standIn;
    deferred.push(file);
  }
  return deferred;
}
