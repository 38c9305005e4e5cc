import { isObject, type JsonObject } from '../../sdk/decode.js';

/**
 * What a replayed session keeps of each request: everything a row reads, without the large values
 * no row reads (the prompt as rendered with its injected context, code-block lists, the texts of
 * edit groups, attachment contents, references and citations). A long session's log holds every
 * request at once until the last line is read; dropping these keeps it to the text the timeline
 * shows. Only leaves the storage schema writes whole are dropped (chatSessionOperationLog.ts
 * @03d43368: `result`, the response parts and `variableData.variables` items are written as
 * values), so no later Set or Push path runs through something removed here.
 */

const RESULT_METADATA_DROPPED = ['renderedUserMessage', 'renderedGlobalContext', 'codeBlocks', 'cacheKey'];
const REQUEST_DROPPED = ['contentReferences', 'codeCitations', 'followups', 'usedContext', 'responseMarkdownInfo'];
const EDIT_PARTS = new Set(['textEditGroup', 'notebookEditGroup']);

/** Slim one request in place (and return it); anything that is not a request is returned as is. */
export function slimRequest(r: unknown): unknown {
  if (!isObject(r)) return r;
  for (const k of REQUEST_DROPPED) delete r[k];
  if (isObject(r.message)) delete r.message.parts;
  if (isObject(r.agent)) r.agent = { id: r.agent.id };
  slimResult(r.result);
  if (Array.isArray(r.response)) for (const p of r.response) slimPart(p);
  const vars = isObject(r.variableData) && Array.isArray(r.variableData.variables) ? r.variableData.variables : [];
  for (const v of vars) {
    if (!isObject(v) || v.value === undefined) continue;
    // An attachment's row needs its URI, never its content (a whole file, an image).
    const value = v.value;
    v.value = isObject(value) && isObject(value.uri) ? { uri: value.uri } : isObject(value) && typeof value.scheme === 'string' ? value : typeof value === 'string' && value.length < 4096 ? value : undefined;
  }
  return r;
}

/** Slim a request's result in place. */
export function slimResult(res: unknown): unknown {
  if (isObject(res) && isObject(res.metadata)) for (const k of RESULT_METADATA_DROPPED) delete (res.metadata as JsonObject)[k];
  return res;
}

/** Slim a response part in place. */
export function slimPart(p: unknown): unknown {
  if (isObject(p) && typeof p.kind === 'string' && EDIT_PARTS.has(p.kind)) delete p.edits;
  return p;
}
