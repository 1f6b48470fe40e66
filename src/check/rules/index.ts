import type { Rule } from '../types.js';
import { CORE_RULES } from './core.js';
import { ANCHOR_RULES } from './anchors.js';
import { STALENESS_RULES } from './staleness.js';
import { RULE_FILE_RULES } from './rule-files.js';
import { CONFIG_RULES } from './config.js';
import { AUTHORING_RULES } from './authoring.js';
import { CONFIRM_RULES } from '../confirm/rules.js';

/** Every check rule, in reporting order. Issues add their rule lists here. */
export const RULES: Rule[] = [...CORE_RULES, ...ANCHOR_RULES, ...STALENESS_RULES, ...RULE_FILE_RULES, ...CONFIG_RULES, ...AUTHORING_RULES, ...CONFIRM_RULES];
