// Preload for Node 20: node --import ./node20/register.mjs <conformance CLI>.
//
// @modelcontextprotocol/conformance >= 0.1.14 has `import { globSync } from "fs"`,
// a named export that only Node >= 22 has, so on Node 20 the CLI fails to link
// before it runs anything. Setting fs.globSync from a preload is not enough:
// node:fs's ES module export names are fixed when it is first loaded. So this
// registers a resolve hook (hooks.mjs) that hands the conformance package a
// stand-in for "fs" (fs.mjs): all of node:fs plus globSync from the glob
// package (pinned in package.json). On Node >= 22 it does nothing.
import fs from 'node:fs';
import { register } from 'node:module';

if (typeof fs.globSync !== 'function') {
  register('./hooks.mjs', import.meta.url);
}
