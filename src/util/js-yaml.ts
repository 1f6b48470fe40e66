import { createRequire } from 'node:module';
import type JsYaml from 'js-yaml';

type JsYamlModule = typeof JsYaml;
let loaded: JsYamlModule | undefined;

/**
 * js-yaml for the read path, loaded once per process on first use: a run that parses no YAML
 * (a warm hook answered from the caches) never loads it. Synchronous, so that no module needs a
 * top-level await for it. Use only this copy to build schemas.
 */
export function loadJsYamlSync(): JsYamlModule {
  return (loaded ??= createRequire(import.meta.url)('js-yaml') as JsYamlModule);
}

/** loadJsYamlSync for async callers. */
export function loadJsYaml(): Promise<JsYamlModule> {
  return Promise.resolve().then(loadJsYamlSync);
}
