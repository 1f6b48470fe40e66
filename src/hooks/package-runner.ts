// @spec SPEC-HOOK-001
// @decision DEC-129
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * How a repository runs its JavaScript tools, for the commands git-ctx tells people to run
 * (`lefthook install`, husky's install). A yarn repository told `npx lefthook install`
 * (Altinn/altinn-studio: yarn 4, lefthook a devDependency) gets npm's copy, or a prompt to
 * download one; a repository that installs lefthook with Homebrew or Go has no package to run.
 */
export type PackageManagerName = 'npm' | 'yarn' | 'pnpm' | 'bun';

function packageJson(top: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(readFileSync(path.join(top, 'package.json'), 'utf8'));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The package manager a package.json declares (`packageManager: "yarn@4.1.0"`), else the one the lockfile names; npm otherwise. */
function managerOf(top: string, pkg: Record<string, unknown> | undefined): PackageManagerName {
  const declared = pkg?.packageManager;
  const name = typeof declared === 'string' ? /^(npm|yarn|pnpm|bun)@/.exec(declared)?.[1] : undefined;
  if (name) return name as PackageManagerName;
  if (existsSync(path.join(top, 'pnpm-lock.yaml'))) return 'pnpm';
  if (existsSync(path.join(top, 'yarn.lock'))) return 'yarn';
  if (existsSync(path.join(top, 'bun.lockb')) || existsSync(path.join(top, 'bun.lock'))) return 'bun';
  return 'npm';
}

/** Is `name` in any of a package.json's dependency lists? */
function hasDependency(pkg: Record<string, unknown> | undefined, name: string): boolean {
  if (!pkg) return false;
  return ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => {
    const deps = pkg[k];
    return !!deps && typeof deps === 'object' && Object.prototype.hasOwnProperty.call(deps, name);
  });
}

/** The command that runs a dependency's binary with a package manager: `npx x`, `yarn x`, `pnpm exec x`, `bunx x`. */
function binCommand(manager: PackageManagerName, bin: string, args: string): string {
  const rest = args ? ` ${args}` : '';
  switch (manager) {
    case 'yarn':
      return `yarn ${bin}${rest}`;
    case 'pnpm':
      return `pnpm exec ${bin}${rest}`;
    case 'bun':
      return `bunx ${bin}${rest}`;
    default:
      return `npx ${bin}${rest}`;
  }
}

/** How one repository runs its tools, from one reading of its package.json (a hook install asks several questions of it). */
export interface PackageRunner {
  manager: PackageManagerName;
  /** `npm install` as this repository says it (`yarn install`, `pnpm install`, `bun install`) */
  install: string;
  /** a dependency's binary run the repository's way */
  run(bin: string, args?: string): string;
  /** `lefthook install` through the package manager when lefthook is a dependency, else the binary on PATH */
  lefthookInstall: string;
}

/** The repository's package runner, reading its package.json once. */
export function packageRunner(top: string): PackageRunner {
  const pkg = packageJson(top);
  const manager = managerOf(top, pkg);
  return {
    manager,
    install: `${manager} install`,
    run: (bin, args = '') => binCommand(manager, bin, args),
    lefthookInstall: hasDependency(pkg, 'lefthook') ? binCommand(manager, 'lefthook', 'install') : 'lefthook install',
  };
}
