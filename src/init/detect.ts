import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { SOURCE_EXTENSIONS } from '../code/languages.js';
import { runGit, splitZ } from '../git/exec.js';

/** What `git ctx init` writes into identity.md. */
export interface DetectedIdentity {
  name: string;
  description?: string;
  /** by number of files, most first */
  languages: string[];
  /** from package.json dependencies (and marker files), in a stable order */
  frameworks: string[];
  /** monorepo workspaces (package.json workspaces, pnpm-workspace.yaml), as written */
  workspaces?: string[];
  /** where each fact came from, for the init report */
  sources: string[];
}

/** File extension (with its dot) → language: the source files of src/code/languages.ts, not data or docs. */
const LANGUAGE_BY_EXT: Record<string, string> = Object.fromEntries(Object.entries(SOURCE_EXTENSIONS).map(([ext, s]) => [`.${ext}`, s.language]));

/** npm dependency → framework or notable tool, in the order they are reported. */
const FRAMEWORK_BY_DEP: [string, string][] = [
  ['next', 'Next.js'], ['nuxt', 'Nuxt'], ['@remix-run/node', 'Remix'], ['@sveltejs/kit', 'SvelteKit'], ['astro', 'Astro'],
  ['react', 'React'], ['vue', 'Vue'], ['svelte', 'Svelte'], ['@angular/core', 'Angular'], ['solid-js', 'Solid'],
  ['express', 'Express'], ['fastify', 'Fastify'], ['koa', 'Koa'], ['@nestjs/core', 'NestJS'], ['hono', 'Hono'], ['@hapi/hapi', 'hapi'],
  ['electron', 'Electron'], ['react-native', 'React Native'],
  ['prisma', 'Prisma'], ['@prisma/client', 'Prisma'], ['typeorm', 'TypeORM'], ['drizzle-orm', 'Drizzle'], ['mongoose', 'Mongoose'], ['pg', 'PostgreSQL'],
  ['graphql', 'GraphQL'], ['@trpc/server', 'tRPC'],
  ['vite', 'Vite'], ['webpack', 'webpack'],
  ['vitest', 'Vitest'], ['jest', 'Jest'], ['mocha', 'Mocha'], ['@playwright/test', 'Playwright'], ['cypress', 'Cypress'],
  ['tailwindcss', 'Tailwind CSS'],
];

/** Marker files of other ecosystems, read for a name when there is no package.json. */
const MARKERS: [string, RegExp, string][] = [
  ['pyproject.toml', /^\s*name\s*=\s*["']([^"']+)["']/m, 'pyproject.toml'],
  ['Cargo.toml', /^\s*name\s*=\s*["']([^"']+)["']/m, 'Cargo.toml'],
  ['go.mod', /^module\s+(\S+)/m, 'go.mod'],
];

/**
 * The `members` of a Cargo.toml's `[workspace]` table, as written (globs kept): a Rust monorepo's
 * crates, the way package.json `workspaces` lists a JavaScript one's packages.
 */
export function cargoWorkspaceMembers(toml: string): string[] {
  const table = /^\s*\[workspace\]\s*$([\s\S]*?)(?=^\s*\[[^\]]+\]\s*$|(?![\s\S]))/m.exec(toml)?.[1];
  const members = table && /^\s*members\s*=\s*\[([^\]]*)\]/m.exec(table)?.[1];
  if (!members) return [];
  return [...members.replace(/#.*$/gm, '').matchAll(/["']([^"']+)["']/g)].map((m) => m[1]!);
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Tracked and untracked-but-not-ignored files: a fresh repository has nothing committed yet. */
export async function repoFiles(root: string): Promise<string[]> {
  const out = await runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root });
  return splitZ(out);
}

/** Languages by file count (most first, ties by name), ignoring vendored and generated folders. */
export function languagesOf(files: string[]): string[] {
  const counts = new Map<string, number>();
  for (const f of files) {
    if (/(^|\/)(node_modules|vendor|dist|build|third_party|\.contextia)\//.test(f)) continue;
    if (/\.d\.ts$/.test(f)) continue;
    const lang = LANGUAGE_BY_EXT[path.posix.extname(f).toLowerCase()];
    if (lang) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([l]) => l);
}

/** Frameworks named by a package.json's dependencies (runtime and dev). */
export function frameworksOf(pkg: Record<string, unknown>): string[] {
  const deps = new Set<string>();
  for (const k of ['dependencies', 'devDependencies', 'peerDependencies']) {
    const d = pkg[k];
    if (d && typeof d === 'object') for (const name of Object.keys(d)) deps.add(name);
  }
  const out: string[] = [];
  for (const [dep, fw] of FRAMEWORK_BY_DEP) if (deps.has(dep) && !out.includes(fw)) out.push(fw);
  return out;
}

/**
 * Detect a project's identity from its files: name and description from package.json
 * (else pyproject.toml, Cargo.toml, go.mod, else the folder name), languages from the
 * extensions of the files git knows about, frameworks from npm dependencies.
 */
export async function detectIdentity(root: string): Promise<DetectedIdentity> {
  const sources: string[] = [];
  let name: string | undefined;
  let description: string | undefined;
  let frameworks: string[] = [];
  const pkgText = await readText(path.join(root, 'package.json'));
  if (pkgText !== undefined) {
    try {
      const pkg = JSON.parse(pkgText) as Record<string, unknown>;
      if (typeof pkg.name === 'string' && pkg.name.trim()) name = pkg.name.trim();
      if (typeof pkg.description === 'string' && pkg.description.trim()) description = pkg.description.trim();
      frameworks = frameworksOf(pkg);
      sources.push('package.json');
    } catch {
      sources.push('package.json (not valid JSON, ignored)');
    }
  }
  if (!name) {
    for (const [file, re, label] of MARKERS) {
      const text = await readText(path.join(root, file));
      const m = text && re.exec(text);
      if (m) {
        name = file === 'go.mod' ? goModuleName(m[1]!) : m[1]!;
        sources.push(label);
        break;
      }
    }
  }
  let workspaces: string[] | undefined;
  if (pkgText !== undefined) {
    try {
      const w = (JSON.parse(pkgText) as { workspaces?: unknown }).workspaces;
      const list = Array.isArray(w) ? w : w && typeof w === 'object' && Array.isArray((w as { packages?: unknown }).packages) ? (w as { packages: unknown[] }).packages : undefined;
      if (list?.length) workspaces = list.map(String);
    } catch {
      /* reported above */
    }
  }
  if (!workspaces) {
    const pnpm = await readText(path.join(root, 'pnpm-workspace.yaml'));
    const list = pnpm ? [...pnpm.matchAll(/^\s*-\s*['"]?([^'"\n#]+?)['"]?\s*$/gm)].map((m) => m[1]!) : [];
    if (list.length) {
      workspaces = list;
      sources.push('pnpm-workspace.yaml');
    }
  }
  if (!workspaces) {
    const list = cargoWorkspaceMembers((await readText(path.join(root, 'Cargo.toml'))) ?? '');
    if (list.length) {
      workspaces = list;
      sources.push('Cargo.toml [workspace]');
    }
  }
  if (!description) {
    const readme = await readText(path.join(root, 'README.md'));
    const para = readme && firstParagraph(readme);
    if (para) {
      description = para;
      sources.push('README.md');
    }
  }
  const files = await repoFiles(root);
  const languages = languagesOf(files);
  if (files.length) sources.push('git ls-files');
  return { name: name ?? path.basename(root), description, languages, frameworks, ...(workspaces ? { workspaces } : {}), sources };
}

/**
 * A Go module's name as its project calls itself: the last element of the module path that is
 * not a major version ("github.com/cosmos/ibc-go/v11" is ibc-go, not the whole path, which
 * titled every context bundle in the cosmos/ibc-go trial). @decision DEC-104
 */
export function goModuleName(modulePath: string): string {
  const parts = modulePath.split('/').filter(Boolean);
  while (parts.length > 1 && /^v\d+$/.test(parts[parts.length - 1]!)) parts.pop();
  return parts[parts.length - 1] ?? modulePath;
}

/** A README paragraph longer than this is cut: at its last sentence end before, else between words. */
const PARAGRAPH_MAX = 400;

/**
 * The first prose paragraph of a README: after the title, skipping badges, images, HTML,
 * tables, code and headings; markdown links reduced to their text; bounded in length.
 */
export function firstParagraph(md: string): string | undefined {
  const lines = md.replace(/\r\n/g, '\n').replace(/<!--[\s\S]*?-->/g, '').split('\n');
  let fence = false;
  const para: string[] = [];
  for (const raw of lines) {
    const l = raw.trim();
    if (/^(```|~~~)/.test(l)) {
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const skip = !l || /^#/.test(l) || /^[=-]{3,}$/.test(l) || /^</.test(l) || /^\|/.test(l) || /^>/.test(l) || /^(!?\[!\[|!\[)/.test(l) || /^[-*+]\s/.test(l);
    if (skip) {
      if (para.length) break;
      continue;
    }
    para.push(l);
  }
  const text = para.join(' ').replace(/!\[[^\]]*\]\([^)]*\)/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]{1,2}/g, '').replace(/\s+/g, ' ').trim();
  if (!text) return undefined;
  if (text.length <= PARAGRAPH_MAX) return text;
  // whole sentences when they fill most of it; else whole words ("For inf…" read as a typo)
  const head = text.slice(0, PARAGRAPH_MAX);
  const sentence = /^.*[.!?](?=\s)/s.exec(head)?.[0];
  if (sentence && sentence.length >= PARAGRAPH_MAX / 3) return sentence;
  return head.slice(0, PARAGRAPH_MAX - 1).replace(/\s+\S*$/, '') + '\u2026';
}
