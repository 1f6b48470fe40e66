export type Paint = Record<'red' | 'yellow' | 'green' | 'blue' | 'dim' | 'bold' | 'cyan', (s: string) => string>;

const codes: Record<keyof Paint, [number, number]> = { red: [31, 39], yellow: [33, 39], green: [32, 39], blue: [34, 39], cyan: [36, 39], dim: [2, 22], bold: [1, 22] };

/** Colour only on a TTY, never with NO_COLOR; FORCE_COLOR forces it. */
export function useColor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return !!stream.isTTY && env.TERM !== 'dumb';
}

export function paint(on: boolean): Paint {
  const out = {} as Paint;
  for (const [k, [a, b]] of Object.entries(codes) as [keyof Paint, [number, number]][]) out[k] = on ? (s) => `\u001b[${a}m${s}\u001b[${b}m` : (s) => s;
  return out;
}
