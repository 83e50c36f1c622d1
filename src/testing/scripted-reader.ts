import type { LinkReader, ReadAnswer, ReadParams } from '../flow/link-reader.ts';

/** What a scripted server answers for one uri: a fixed answer, or one made from the read's params. */
export type ScriptedAnswer = ReadAnswer | ((params: ReadParams) => ReadAnswer | Promise<ReadAnswer>);

/** A `LinkReader` over a table of answers, with every read it was asked for. */
export interface ScriptedReader {
  readonly read: LinkReader;
  /** the params of every read asked of this reader, in order (what the "server" saw) */
  readonly asked: ReadParams[];
}

/** JSON-RPC's "resource not found" code the MCP spec uses for an unknown uri. */
export const resourceNotFound = -32002;

/**
 * A reader that answers each uri from `answers` (an unknown uri gets a `-32002` error) and rejects once the read's
 * signal aborts, as a real reader must; `asked` shows what reached the "server", to prove a refused link never did.
 */
export function scriptedReader(answers: Readonly<Record<string, ScriptedAnswer>>): ScriptedReader {
  const asked: ReadParams[] = [];
  const read: LinkReader = async (params, signal) => {
    signal.throwIfAborted();
    asked.push(params);
    const scripted = Object.hasOwn(answers, params.uri) ? answers[params.uri] : undefined;
    if (scripted === undefined) return { error: { code: resourceNotFound, message: `no resource \`${params.uri}\`` } };
    const answer = typeof scripted === 'function' ? scripted(params) : scripted;
    return await new Promise<ReadAnswer>((resolve, reject) => {
      const onAbort = (): void => reject(asError(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(answer).then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(asError(error));
        },
      );
    });
  };
  return { read, asked };
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new Error(String(reason));
}
