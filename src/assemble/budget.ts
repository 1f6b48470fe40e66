import type { Depth } from '../artifacts/types.js';
import { CtxError } from '../errors.js';
import type { Adjustment, EntryRole } from './types.js';

/** An entry as the budget sees it: who it is, how important, what each depth costs. */
export interface BudgetItem {
  id: string;
  type: string;
  role: EntryRole;
  direct: boolean;
  distance: number | null;
  why: string;
  /** position of the type in the kind order */
  kindRank: number;
  requestedDepth: Depth;
  /** tokens at each depth at or below the requested one */
  tokens: Partial<Record<Depth, number>>;
}

export interface BudgetResult {
  /** final depth by id; absent = dropped */
  depth: Map<string, Depth>;
  adjustments: Adjustment[];
  total: number;
}

const LOWER: Record<Depth, Depth | undefined> = { full: 'summary', summary: 'meta', meta: undefined };

/**
 * Keep-priority: identity, root, then by kind order with direct before transitive inside a
 * kind, nearer before farther, then bundle order. The budget lowers and drops from the
 * other end of this list.
 */
function priorityCompare(order: BudgetItem[]): (a: BudgetItem, b: BudgetItem) => number {
  const index = new Map(order.map((x, i) => [x.id, i] as const));
  const role = (r: EntryRole) => (r === 'identity' ? 0 : r === 'root' ? 1 : r === 'linked' ? 2 : 3);
  return (a, b) =>
    role(a.role) - role(b.role) ||
    a.kindRank - b.kindRank ||
    Number(!a.direct) - Number(!b.direct) ||
    (a.distance ?? 0) - (b.distance ?? 0) ||
    index.get(a.id)! - index.get(b.id)!;
}

const describe = (x: BudgetItem) => (x.role === 'related' ? `related ${x.type} (retrieved, not linked)` : x.role === 'linked' ? `${x.direct ? 'direct' : 'transitive'} ${x.type}` : x.role === 'root' ? `the ${x.type} itself` : 'identity');

/**
 * Fit the items into `budget` tokens. Rules, in order:
 * 1. identity and root are always kept;
 * 2. every other entry is lowered one level at a time (full → summary, then summary → meta),
 *    lowest priority first, before anything is dropped — a lowering that saves nothing is skipped;
 * 3. then other entries are dropped, lowest priority first (so transitive before direct), and
 *    what the drops freed goes back to the highest-priority lowered entries (raised while it fits);
 * 4. only then are identity and root lowered (identity first);
 * 5. if identity + root at meta still do not fit, a BUDGET error says so: never a silent cut.
 */
export function fitBudget(items: BudgetItem[], budget: number): BudgetResult {
  const depth = new Map(items.map((x) => [x.id, x.requestedDepth] as const));
  const cost = (x: BudgetItem) => {
    const d = depth.get(x.id);
    return d === undefined ? 0 : x.tokens[d]!;
  };
  let total = items.reduce((s, x) => s + cost(x), 0);
  const mandatory = items.filter((x) => x.role === 'identity' || x.role === 'root');
  const minimum = mandatory.reduce((s, x) => s + (x.tokens.meta ?? 0), 0);
  if (minimum > budget) {
    throw new CtxError(
      'BUDGET',
      `budget of ${budget} tokens is too small: even the minimum (${mandatory.map((x) => x.id).join(' + ')} at meta depth) needs ${minimum} tokens`,
      { hint: `raise --budget to at least ${minimum}` },
    );
  }
  const reasons = new Map<string, string>();
  const fits = () => total <= budget;
  const lowerOnce = (x: BudgetItem, why: string): void => {
    const d = depth.get(x.id)!;
    const to = LOWER[d];
    if (!to || x.tokens[to]! >= x.tokens[d]!) return;
    total += x.tokens[to]! - x.tokens[d]!;
    depth.set(x.id, to);
    reasons.set(x.id, why);
  };

  const ascending = [...items].sort(priorityCompare(items));
  const optional = ascending.filter((x) => x.role === 'linked' || x.role === 'related').reverse();
  for (const from of ['full', 'summary'] as const) {
    for (const x of optional) {
      if (fits()) break;
      if (depth.get(x.id) === from) lowerOnce(x, `budget ${budget}: ${describe(x)}, lowered before anything is dropped`);
    }
  }
  for (const x of optional) {
    if (fits()) break;
    total -= cost(x);
    depth.delete(x.id);
    reasons.set(x.id, `budget ${budget}: ${describe(x)}, dropped after every entry was lowered as far as it goes`);
  }
  if (optional.some((x) => !depth.has(x.id))) {
    // Dropping frees the meta cost of what went; give it back to the highest-priority entries
    // that were lowered, one level at a time, as long as everything still fits.
    const RAISE: Record<Depth, Depth | undefined> = { meta: 'summary', summary: 'full', full: undefined };
    for (const x of [...optional].reverse()) {
      for (let d = depth.get(x.id); d !== undefined && d !== x.requestedDepth; d = depth.get(x.id)) {
        const up = RAISE[d]!;
        const extra = x.tokens[up]! - x.tokens[d]!;
        if (total + extra > budget) break;
        total += extra;
        depth.set(x.id, up);
        if (up === x.requestedDepth) reasons.delete(x.id);
      }
    }
  }
  // the identity gives way before the task: the task is what the agent is about to do
  const mandatoryLowFirst = [...mandatory].sort((a, b) => (a.role === b.role ? 0 : a.role === 'identity' ? -1 : 1));
  for (const from of ['full', 'summary'] as const) {
    for (const x of mandatoryLowFirst) {
      if (fits()) break;
      if (depth.get(x.id) === from) lowerOnce(x, `budget ${budget}: ${describe(x)} lowered only after every other entry was lowered or dropped`);
    }
  }
  if (!fits()) {
    // unreachable while minimum <= budget, kept so a logic slip can never truncate silently
    throw new CtxError('BUDGET', `could not fit the bundle into ${budget} tokens (${total} needed)`);
  }

  const adjustments: Adjustment[] = [];
  for (const x of items) {
    const reason = reasons.get(x.id);
    if (!reason) continue;
    const d = depth.get(x.id);
    const before = x.tokens[x.requestedDepth]!;
    adjustments.push(
      d === undefined
        ? { id: x.id, type: x.type, action: 'dropped', from: x.requestedDepth, tokensBefore: before, tokensAfter: 0, direct: x.direct, why: x.why, reason }
        : { id: x.id, type: x.type, action: 'lowered', from: x.requestedDepth, to: d, tokensBefore: before, tokensAfter: x.tokens[d]!, direct: x.direct, why: x.why, reason },
    );
  }
  return { depth, adjustments, total };
}
