/**
 * AI Assistant's chats, `<IDE config>/<Product><version>/workspace/<projectWorkspaceId>.xml`,
 * component `ChatSessionStateTemp` (IntelliJ's state serializer: every field an `<option name
 * value>`, beans in their class element, defaults left out). Each `SerializedChat` is a session
 * (its `uid`, which is also its agent task log's name in aia-task-history): `title`, `chatModelId`
 * (`agent_...` for an agent chat, whose XML keeps only the prompts), `statisticInformation.
 * timestamp` and `modifiedAt` (epoch ms), and messages with `author` ("Assistant", absent for the
 * user), `displayContent` and `internalContent`. No message has a time: every row takes the chat's
 * (tag `time_session`). Shapes from JetBrains' code and peer parsers (shared/agents/jetbrains-ai.md).
 */
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { workspaceProject } from './workspace-project.js';
import { parseXml, type XmlNode } from './xml-tree.js';

/** The options of a bean element: scalars by name, nested beans and lists as their element. */
function options(n: XmlNode | undefined): Map<string, { value?: string; node: XmlNode }> {
  const out = new Map<string, { value?: string; node: XmlNode }>();
  for (const c of n?.children ?? []) if (c.name === 'option' && c.attrs.name !== undefined) out.set(c.attrs.name, { value: c.attrs.value, node: c });
  return out;
}

const listItems = (opt: { node: XmlNode } | undefined, item: string): XmlNode[] => (opt?.node.children.find((c) => c.name === 'list')?.children ?? []).filter((c) => c.name === item);
const bean = (opt: { node: XmlNode } | undefined, name: string): XmlNode | undefined => opt?.node.children.find((c) => c.name === name);

/** Every element, depth first, without recursion (a file nested thousands deep must not overflow the stack). */
function* walk(root: XmlNode): Generator<XmlNode> {
  const todo = [root];
  for (let n = todo.pop(); n; n = todo.pop()) {
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) todo.push(n.children[i]);
  }
}

/** The chats of one workspace file; a file without the component gives nothing, a damaged one what it holds and a warning. */
export async function* parseWorkspaceChats(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  let text: string;
  try {
    const r = await readSmall(a.stream(), 64 * 1024 * 1024);
    if (!r.ok) return yield unreadableRow(r.reason, { timestamp_utc: a.mtime });
    text = decodeText(r.buffer);
  } catch (e) {
    return yield unreadableRow(`could not read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { timestamp_utc: a.mtime });
  }
  // Most workspace files hold no chat: the component's name is looked for before any parse.
  if (!text.includes('ChatSessionStateTemp')) return;
  const { root, error } = parseXml(text);
  if (error) ctx.warn(`${a.rel}: ${error}; the chats read before it are kept`);
  const product = a.rel.split('/').at(-3) ?? '';
  const project = await workspaceProject(a);
  const component = [...walk(root)].find((n) => n.name === 'component' && n.attrs.name === 'ChatSessionStateTemp');
  for (const chat of listItems(options(component).get('chats'), 'SerializedChat')) {
    const o = options(chat);
    const id = o.get('uid')?.value ?? '';
    const titleOpts = options(bean(o.get('title'), 'SerializedChatTitle'));
    const title = titleOpts.get('text')?.value ?? o.get('title')?.value ?? '';
    const model = o.get('chatModelId')?.value ?? '';
    const started = toUtc(Number(options(bean(o.get('statisticInformation'), 'ChatStatisticInformation')).get('timestamp')?.value));
    const modified = toUtc(Number(o.get('modifiedAt')?.value));
    const when = started || modified;
    const f = { session_id: id, project_path: project, timestamp_utc: when || a.mtime, ...(when ? {} : { tag: 'time_file' }) };
    // Below the task log's and Junie's own directory: the list says where the project is now, not where the chat ran.
    if (project) ctx.fact({ session_id: id, key: 'cwd', value: project, priority: 3 });
    if (title) ctx.fact({ session_id: id, key: 'name', value: title, priority: 1 });
    ctx.fact({ session_id: id, key: 'client', value: product, priority: 2 });
    yield makeRow('system', `chat: ${title} model=${model || '-'} product=${product}${modified ? ` modified=${modified}` : ''}`, { ...f, source_line: null, tag: 'session_start' });
    if (title) yield makeRow('system', `session name: ${title}`, { ...f, source_line: null, tag: 'session_name' });
    if (model) yield makeRow('system', `model: ${model}`, { ...f, model, source_line: null, tag: 'model' });
    const rowTime = when ? { tag: 'time_session' } : {};
    for (const [k, m] of listItems(o.get('messages'), 'SerializedChatMessage').entries()) {
      const mo = options(m);
      const author = mo.get('author')?.value ?? '';
      const shown = mo.get('displayContent')?.value ?? mo.get('content')?.value ?? '';
      const sent = mo.get('internalContent')?.value ?? '';
      const line = { ...f, ...rowTime, source_line: k + 1 };
      if (author === 'Assistant') {
        if (shown || sent) yield makeRow('assistant', shown || sent, { ...line, model });
      } else if (author === '' || author === 'User') {
        yield makeRow('user', shown || sent, line);
        if (sent && shown && sent !== shown) yield makeRow('system', `context: ${sent}`, { ...line, tag: 'context' });
      } else {
        ctx.unknown(`author ${author}`, k + 1);
        yield makeRow('system', `${author} message: ${shown || sent}`, line);
      }
    }
  }
}
