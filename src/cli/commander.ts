import { createRequire } from 'node:module';
import type * as C from 'commander';

// commander through require rather than import: see src/util/picomatch.ts (~5 ms of every start)
const commander = createRequire(import.meta.url)('commander') as typeof C;

export const Command = commander.Command;
export type Command = C.Command;
export const Option = commander.Option;
export type Option = C.Option;
export const CommanderError = commander.CommanderError;
export type CommanderError = C.CommanderError;
