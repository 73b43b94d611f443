// Module resolve hook registered by register.mjs (Node 20 only): "fs" and
// "node:fs" imported from inside @modelcontextprotocol/conformance resolve to
// fs.mjs beside this file.
const standIn = new URL('./fs.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (
    (specifier === 'fs' || specifier === 'node:fs') &&
    context.parentURL !== undefined &&
    context.parentURL.includes('/node_modules/@modelcontextprotocol/conformance/')
  ) {
    return { url: standIn, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
