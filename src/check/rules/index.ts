import type { Rule } from '../types.js';
import { CORE_RULES } from './core.js';

/** Every check rule, in reporting order. Issues add their rule lists here. */
export const RULES: Rule[] = [...CORE_RULES];
