// linkgate/testing: helpers for testing a front end or a host built on linkgate; each export by name, snapshotted.
export { memorySink } from './memory-sink.ts';
export type { MemorySink } from './memory-sink.ts';
export { resourceNotFound, scriptedReader } from './scripted-reader.ts';
export type { ScriptedAnswer, ScriptedReader } from './scripted-reader.ts';
export { recordViolations } from '../record/record-invariants.ts';
