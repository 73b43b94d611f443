// node:fs with the globSync that Node 22 added, for Node 20 (see register.mjs).
// It covers what fs.globSync(pattern, { cwd, exclude, withFileTypes }) does,
// with paths relative to cwd like Node's.
import fs from 'node:fs';
import { globSync as glob } from 'glob';

export * from 'node:fs';
export default fs;

export function globSync(pattern, options = {}) {
  const withFileTypes = Boolean(options.withFileTypes);
  const opts = {
    cwd: options.cwd === undefined ? process.cwd() : String(options.cwd),
    withFileTypes,
  };
  if (Array.isArray(options.exclude)) {
    opts.ignore = options.exclude;
  } else if (typeof options.exclude === 'function') {
    const exclude = options.exclude;
    opts.ignore = { ignored: (p) => Boolean(exclude(withFileTypes ? p : p.relative())) };
  }
  return glob(pattern, opts);
}
