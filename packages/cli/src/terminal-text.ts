/**
 * Text for a terminal: every C0 control (except newline and tab), DEL and every C1 control is
 * written as `\xNN`, so a file name, host name or line from the evidence cannot move the cursor,
 * set the title, clear the screen or (OSC 52) write the clipboard. Other Unicode is kept as is.
 */
export function terminalText(text: string): string {
  // C1 controls count too: some terminals take U+009B alone as CSI.
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
