// @spec SPEC-RULES-001

export { RULE_FORMATS, BEGIN_MARKER, END_MARKER, findManagedSection, spliceSection, isGeneratedFile, type RuleFormat } from './formats.js';
export { planRuleFiles, exportedArtifacts, expandBraces, type RuleFile, type RulesPlan, type RulesExportOptions } from './export.js';
export { planRulesImport, type ImportedNorm, type RulesImportPlan } from './import.js';
export { rulesCounter } from './counter.js';
