import { createRequire } from 'node:module';
import path from 'node:path';
import type JsYaml from 'js-yaml';
import { requireWithCodeCache } from '../cache/compile-cache.js';

type JsYamlModule = typeof JsYaml;
let loading: Promise<JsYamlModule> | undefined;

/**
 * js-yaml for the read path, loaded once per process from its single-file CommonJS build with
 * the V8 code cache (~6 ms against ~16 ms for `import`): every commit that touches an
 * artifact parses it in the hook. Where that file is not on disk (the Action bundle carries
 * js-yaml inside itself) the plain import serves. Use only this copy to build schemas.
 */
export function loadJsYaml(): Promise<JsYamlModule> {
  loading ??= (async () => {
    try {
      const req = createRequire(import.meta.url);
      const file = path.join(path.dirname(req.resolve('js-yaml/package.json')), 'dist', 'js-yaml.js');
      const mod = requireWithCodeCache(file) as JsYamlModule;
      if (typeof mod.load === 'function') return mod;
    } catch {
      /* not on disk as a package: bundled */
    }
    return (await import('js-yaml')).default;
  })();
  return loading;
}
