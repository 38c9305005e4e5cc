export { COMMANDS } from './commands/index.js';
