// The public surface of linkgate: each export by name; a test snapshots this list.
export { createGate } from './gate/create-gate.ts';
export { engineError } from './decision/deny.ts';
export type { Gate, GateOptions, Resolver } from './gate/create-gate.ts';
export { GateError, formatDiagnostic } from './errors.ts';
export type { Diagnostic, GateErrorCode, SourceLocation } from './errors.ts';
export { allowedSignersEnv, loadPolicy, parsePolicy } from './policy/load-policy.ts';
export type { LoadPolicyOptions } from './policy/load-policy.ts';
export { policySignatureNamespace } from './policy/ssh-signature.ts';
export type { ReviewCheck, ReviewProblem, ReviewSigner } from './policy/verify-review.ts';
export type { Policy } from './policy/policy.ts';
export type { PolicyDocument, RuleDocument } from './policy/policy-schema.ts';
export { policyDigest } from './policy/policy-digest.ts';
export type { Decision, Effect, ItemDecision, PolicyRef, Reason, ReasonStage } from './decision/decision.ts';
export { reasonCodes } from './decision/reason-codes.ts';
export type { ReasonCode } from './decision/reason-codes.ts';
export type { CredentialInput, GateInput, LinkInput, ReadInput } from './gate/inputs.ts';
export type { ItemEvidence, ReadVerdict } from './gate/decide-read.ts';
export { holdPolicy } from './gate/reload-policy.ts';
export { loadBundlePolicy } from './bundle/bundle-policy.ts';
export type { BundlePolicy } from './bundle/bundle-policy.ts';
export { bundleState } from './bundle/bundle-state.ts';
export type { BundleState } from './bundle/bundle-state.ts';
export type { BundleManifest } from './bundle/bundle-manifest.ts';
export type { HoldPolicyOptions, PolicyHolder, ReloadOutcome } from './gate/reload-policy.ts';
export { gateTransport, decisionMetaKey, gateErrorCode } from './sdk/gate-transport.ts';
export type { GateTransport, GateTransportOptions } from './sdk/gate-transport.ts';
export { gateToolResult } from './sdk/gate-tool-result.ts';
export type { GateToolResultOptions, RequestingClient } from './sdk/gate-tool-result.ts';
export { gatedRead } from './sdk/gated-read.ts';
export type { GatedRead, GatedReadOptions } from './sdk/gated-read.ts';
export { DiscoveredLinks, maxDiscoveredLinks } from './flow/discovered-links.ts';
export type { DiscoveredLink } from './flow/discovered-links.ts';
export type { DirectFetchOptions, FetchHeaders } from './fetch/direct-fetcher.ts';
export { cappedFetch } from './fetch/capped-fetch.ts';
export { connectionByteCap } from './sdk/connection-byte-cap.ts';
export { cappedStdioTransport } from './sdk/capped-stdio-transport.ts';
export type { StdioTransportClass } from './sdk/capped-stdio-transport.ts';
export { ReadCache } from './flow/read-cache.ts';
export type { ReadCacheOptions } from './flow/read-cache.ts';
export { callbackSink, jsonLinesSink } from './record/record-sink.ts';
export type { RecordSink } from './record/record-sink.ts';
export type { OnRecordError } from './record/record-error.ts';
export { recordKindOf } from './record/record-kind.ts';
export type { RecordKind } from './record/record-kind.ts';
export type { EmbeddedRecord } from './record/embedded-record.ts';
export type { LinkRecord, NextStep, Verdict } from './record/link-record.ts';
export { gatedFetch } from './fetch/gated-fetch.ts';
export type { GatedFetchOptions } from './fetch/gated-fetch.ts';
export { parseFetchRequest } from './fetch/fetch-request.ts';
export type { FetchRequest } from './fetch/fetch-request.ts';
export type { FetchHop, FetchResult } from './fetch/fetch-result.ts';
// the flow, for writing a front end of your own (ARCHITECTURE.md, "A front end")
export { runToolResultFlow } from './flow/run-tool-result-flow.ts';
export type { EmbeddedCheck, GatedToolResult, ToolResultFlowOptions } from './flow/run-tool-result-flow.ts';
export { runLinkFlow } from './flow/run-link-flow.ts';
export type { LinkFlowOptions, LinkFlowResult } from './flow/run-link-flow.ts';
export {
  discoverLink,
  isEnforced,
  judgeRead,
  linkRefused,
  readFailed,
  sendRead,
  skipRead,
  startLink,
} from './flow/link-steps.ts';
export type {
  AnswerTiming,
  FlowMode,
  LinkStep,
  ReadFailure,
  ReadJudgement,
  StartLinkInput,
} from './flow/link-steps.ts';
export { answerOf } from './flow/link-reader.ts';
export type { InputAnswerer, LinkReader, ReadAnswer, ReadParams } from './flow/link-reader.ts';
export { judgeEmbedded, judgeEmbeddedItems, judgeMessages, withheldItem } from './flow/judge-embedded.ts';
export type { EmbeddedJudgement, ItemsJudgement, MessagesJudgement } from './flow/judge-embedded.ts';
export { discoverLinks } from './flow/discover-links.ts';
export type { FoundEmbedded, FoundLink } from './flow/discover-links.ts';
export { gateNotice } from './flow/gate-notice.ts';
export type { NoticeSubject } from './flow/gate-notice.ts';
export { refusedLinkItem, refusedLinkNotice } from './flow/refused-link.ts';
export { recordRef } from './flow/record-ref.ts';
export { messageShape } from './flow/json-rpc-shape.ts';
export type { JsonRpcId, MessageShape } from './flow/json-rpc-shape.ts';
export { checkResourceLink } from './link/resource-link.ts';
export type { CheckedLink, ResourceLink } from './link/resource-link.ts';
export type { UriReading } from './link/reused-url.ts';
