import { createRequire } from 'node:module';
import path from 'node:path';
import type JsYaml from 'js-yaml';
import { requireWithCodeCache } from '../cache/compile-cache.js';

type JsYamlModule = typeof JsYaml;
let loaded: JsYamlModule | undefined;

/**
 * js-yaml for the read path, loaded once per process from its single-file CommonJS build with
 * the V8 code cache (~6 ms against ~16 ms for `import`): every commit that touches an
 * artifact parses it in the hook. Where that file is not on disk (the Action bundle carries
 * js-yaml inside itself, where the plain require below is bundled) the package's own entry
 * serves. Synchronous, so that no module needs a top-level await for it (the CLI bundle is
 * CommonJS, DEC-031). Use only this copy to build schemas.
 */
export function loadJsYamlSync(): JsYamlModule {
  if (loaded) return loaded;
  try {
    const req = createRequire(import.meta.url);
    const file = path.join(path.dirname(req.resolve('js-yaml/package.json')), 'dist', 'js-yaml.js');
    const mod = requireWithCodeCache(file) as JsYamlModule;
    if (typeof mod.load === 'function') return (loaded = mod);
  } catch {
    /* not on disk as a package: bundled */
  }
  return (loaded = createRequire(import.meta.url)('js-yaml') as JsYamlModule);
}

/** loadJsYamlSync for async callers. */
export function loadJsYaml(): Promise<JsYamlModule> {
  return Promise.resolve().then(loadJsYamlSync);
}
