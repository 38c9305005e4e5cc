import type { AgentPlugin, Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { parseChatHistory } from './chat-history.js';
import { parseAiderConfig } from './config-parser.js';
import { parseInputHistory } from './input-history.js';

const CHAT = /(?:^|\/)\.aider\.chat\.history\.md$/i;
const INPUT = /(?:^|\/)\.aider\.input\.history$/i;
const CONFIG = /(?:^|\/)\.aider\.conf\.ya?ml$/i;

function parser(name: string, patterns: string[], re: RegExp, parse: (a: Artifact, ctx: ParseContext) => AsyncIterable<Row>, opts: { secondary?: boolean; secret?: boolean } = {}): Parser {
  return {
    agent: 'aider',
    name,
    patterns,
    wants: (rel) => re.test(rel),
    secondary: (rel) => opts.secondary === true && re.test(rel),
    // An input entry and the transcript's copy of it carry the same time once matched; an unmatched one the session's start.
    secondaryToleranceSeconds: () => 24 * 3600,
    recordsSync: false,
    readsSecretFile: (rel) => opts.secret === true && re.test(rel),
    parse,
  };
}

/** Aider: the Markdown transcript (sessions, prompts, replies, shell runs, confirm answers, edits, commits), the input history, the config. */
export const aiderPlugin: AgentPlugin = {
  agent: 'aider',
  parsers: [
    parser('chat-history', ['<project or ~>/.aider.chat.history.md'], CHAT, (a, ctx) => parseChatHistory(a, ctx)),
    parser('input-history', ['<project or ~>/.aider.input.history'], INPUT, (a) => parseInputHistory(a), { secondary: true }),
    parser('config', ['<project or ~>/.aider.conf.yml'], CONFIG, (a) => parseAiderConfig(a), { secret: true }),
  ],
};
