import { CtxError } from '../errors.js';
import type { Snapshot } from '../snapshot/types.js';

/**
 * A line asked of a file must be in it: `file:99999` past the end (or `file:0`) is the
 * caller's mistake, answered with the file's length rather than with results for nothing.
 */
export async function checkLineInFile(snapshot: Snapshot, file: string, line: number | undefined): Promise<void> {
  if (line === undefined) return;
  const bytes = await snapshot.read(file);
  if (!bytes) return;
  let lines = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lines++;
  if (bytes.length && bytes[bytes.length - 1] !== 10) lines++;
  if (line < 1 || line > lines) throw new CtxError('USAGE', `${file}:${line} is not a line of ${file}: it has ${lines} line${lines === 1 ? '' : 's'}`, { hint: `pass a line from 1 to ${lines}` });
}
