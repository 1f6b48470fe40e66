import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default is one worker fewer than the cores: a single worker on a 2-core CI
    // machine, idle while its test waits on git, the CLI or a sleep; at least 3 (DEC-124)
    maxWorkers: Math.max(availableParallelism() - 1, 3),
    globalSetup: ['test/global-setup.ts'],
    env: { NO_COLOR: '1' },
  },
});
