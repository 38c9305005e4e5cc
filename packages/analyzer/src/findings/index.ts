export { FindingsEngine } from './engine.js';
export { BUILT_IN_RULES, checkSet, compileRules, loadRules, MCP_FIELDS, TIMELINE_FIELDS } from './load.js';
export { type CorrelationRule, type DetectionRule, type Finding, type FindingRow, type Level, LEVELS, type Rule, type RowSink, type SinkEnd } from './types.js';
export { RuleError } from './located.js';
