// The smoke suite every real host runs with no linkgate in between: the real binary, offline, calls the fixture
// server's tools, reads links with its own resource-read tool, and the scripted model API sees the bodies; then
// scripted hook answers refuse, block and replace reads. What differs between hosts (tool names, hook event names,
// answer formats, where a blob goes) is the `SmokeHost` each host's file passes in.
// LINKGATE_RECORD_OBSERVED=1 rewrites observed/<host>/*.json from the run; otherwise the run's hook events and
// tool results must keep the recorded shape (a new pinned version that changes them fails here first).
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  answeringCommand,
  type HookAnswer,
  type McpServerConfig,
  recordedEvents,
  recorderCommand,
} from './claude-code.ts';
import { fixtureServer, serverReads } from './fixture-process.ts';
import { type FixtureResource, fixtureEmbedded, fixtureLinks, fixtureNamed } from './fixture-resources.ts';
import type { HostRunResult } from './host-run.ts';
import { realHostSuite } from './host-suite.ts';
import type { HostInstall } from './install-package.ts';
import type { AssistantTurn, ScriptStep } from './model-api.ts';
import { readObserved, shapeOf, stableSample, writeObserved } from './observed-shape.ts';

type Json = Record<string, unknown>;

/** One host run of the suite: the fixture server, the command every hook runs, the prompt and the model's script. */
export interface SmokeRun {
  mcpServers: Record<string, McpServerConfig>;
  hookCommand: string;
  prompt: string;
  script: readonly ScriptStep[];
}

/** The calls of the first test, by role: what each hook event and tool result is checked against. */
export interface SmokeCalls {
  links: string;
  readText: string;
  readBlob: string;
  embedded: string;
  list: string;
}

/** What the suite needs to know of one host; each field is a real difference between hosts. */
export interface SmokeHost<Result> {
  /** names the host in test titles and skip messages, e.g. `claude code` */
  label: string;
  /** the folder under observed/ holding this host's recorded shapes */
  observed: string;
  /** the observed file of the host's own output events (`stream-json`, `exec-json`) */
  outputEvents: string;
  install(): Promise<HostInstall>;
  /** runs the host once with every hook running `hookCommand` */
  run(options: SmokeRun): Promise<HostRunResult<Result>>;
  /** prefix of every call id the script makes (`toolu_`, `call_`) */
  callIdPrefix: string;
  /** tool names as the host offers them to the model */
  tools: { links: string; embedded: string; read: string; list: string };
  /** the read tool's input for `uri` */
  readInput(uri: string): Json;
  /** the list tool's input */
  listInput: Json;
  /** the hook events before and after a tool runs */
  events: { pre: string; post: string };
  /** whether hook events carry the call id (`tool_use_id`); without it a call's events are told apart by tool and uri */
  hooksSeeCallIds: boolean;
  /** what the model read of one tool result, as text */
  resultText(result: Result | undefined): string;
  /** whether the agent turns show the model's requests before and after the text read (a host that sends one request per turn) */
  turnsShowRead: boolean;
  /** whether the embedded tool's bodies are checked in the model's tool result */
  embeddedInResult: boolean;
  /** host-specific checks of the first run: where the blob went, what the list tool answered */
  expectReads(
    run: HostRunResult<Result>,
    calls: SmokeCalls,
    resources: { readme: FixtureResource; logo: FixtureResource },
  ): Promise<void>;
  /** the hook events the host fired for `calls` (tool name, call id), in the host's order guarantees */
  expectHookCalls(events: readonly Json[], calls: readonly { tool: string; id: string }[]): void;
  /** what the post-read hook events of the text and the blob read carry as the read's response */
  expectReadResponse(
    posts: { text: Json | undefined; blob: Json | undefined },
    resources: { readme: FixtureResource; logo: FixtureResource },
  ): void;
  /** the hook answer (stdout) that refuses a read before it happens, for `reason` */
  denyBeforeRead(reason: string): Json;
  /** the hook answer (stdout) that withholds a read after it happened, replacing its result with `text` */
  replaceAfterRead(uri: string, text: string): Json;
  /** the hook answers test's title */
  answersTitle: string;
  /** whether a post-read block or exit 2 replaces the whole result (also tried on a blob and the embedded tool) */
  postBlocksWholeResult: boolean;
  /** whether a refused call comes back marked as an error, and how to read that mark */
  isError?: (result: Result | undefined) => boolean | undefined;
}

const record = process.env['LINKGATE_RECORD_OBSERVED'] === '1';
const use = (id: string, name: string, input: Json): AssistantTurn => ({ toolUses: [{ id, name, input }] });

/** Registers the host's smoke tests: reads reach the model and server as sent, and scripted hook answers take effect. */
export function smokeSuite<Result>(host: SmokeHost<Result>): void {
  const suite = realHostSuite(host.label, () => host.install());
  const id = (name: string) => `${host.callIdPrefix}${name}`;
  const read = (callId: string, uri: string) => use(callId, host.tools.read, host.readInput(uri));
  // a call's hook event: by its call id where hooks see it, else the first event of its tool
  const hookEventOf = (events: readonly Json[], event: string, callId: string, tool: string) =>
    events.find(
      (e) =>
        e['hook_event_name'] === event &&
        (host.hooksSeeCallIds ? e['tool_use_id'] === callId : e['tool_name'] === tool),
    );
  // an answer's key (answer-hook.mjs): the event and call id, else the event, the read tool and the uri
  const answerKey = (event: string, callId: string, uri: string) =>
    host.hooksSeeCallIds ? `${event} ${callId}` : `${event} ${host.tools.read} ${uri}`;

  describe(`${host.label} against the fixture server, no gate in between`, () => {
    test('tool links, resource reads and hook events reach the model and the server as sent', async (ctx) => {
      suite.require(ctx);
      const { readme, logo } = fixtureNamed;
      const logs = await suite.scratch('linkgate-smoke-');
      const requestLog = path.join(logs, 'requests.jsonl');
      const hookLog = path.join(logs, 'hooks.jsonl');
      const calls: SmokeCalls = {
        links: id('links'),
        readText: id('read_text'),
        readBlob: id('read_blob'),
        embedded: id('embedded'),
        list: id('list'),
      };
      const run = await host.run({
        mcpServers: { fixture: fixtureServer(requestLog) },
        hookCommand: recorderCommand(hookLog),
        prompt: 'list the links of the fixture server and read them',
        script: [
          use(calls.links, host.tools.links, {}),
          read(calls.readText, readme.uri),
          read(calls.readBlob, logo.uri),
          use(calls.embedded, host.tools.embedded, {}),
          use(calls.list, host.tools.list, host.listInput),
          { text: 'all read' },
        ],
      });
      suite.defer(() => run.cleanup());
      expect(run.timedOut, run.stderr).toBe(false);
      expect(run.exitCode, run.stderr).toBe(0);

      // the model saw every link the tool returned, then the readme's body in the request after the read
      const links = host.resultText(run.toolResults[calls.links]);
      for (const l of fixtureLinks) expect(links).toContain(l.uri);
      if (host.turnsShowRead) {
        const [, beforeRead, afterRead] = run.modelRequests.filter((r) => r.agentTurn);
        expect(JSON.stringify(beforeRead?.body)).not.toContain(readme.marker);
        expect(JSON.stringify(afterRead?.body)).toContain(readme.marker);
      }
      expect(host.resultText(run.toolResults[calls.readText])).toContain(readme.marker);
      if (host.embeddedInResult)
        expect(host.resultText(run.toolResults[calls.embedded])).toContain(fixtureEmbedded[0]?.marker);
      await host.expectReads(run, calls, { readme, logo });

      // the server was asked exactly for the two reads the model made
      expect(await serverReads(requestLog)).toEqual([readme.uri, logo.uri]);

      // a recording hook saw an event before and after every tool call
      const events = await recordedEvents(hookLog);
      host.expectHookCalls(events, [
        { tool: host.tools.links, id: calls.links },
        { tool: host.tools.read, id: calls.readText },
        { tool: host.tools.read, id: calls.readBlob },
        { tool: host.tools.embedded, id: calls.embedded },
        { tool: host.tools.list, id: calls.list },
      ]);
      const readPost = hookEventOf(events, host.events.post, calls.readText, host.tools.read);
      expect(readPost?.['tool_input']).toEqual(host.readInput(readme.uri));
      const blobPost = hookEventOf(events, host.events.post, calls.readBlob, host.tools.read);
      host.expectReadResponse({ text: readPost, blob: blobPost }, { readme, logo });

      const hookSample = stableSample(events, run.dir);
      if (record) {
        await writeObserved(host.observed, 'hook-events', hookSample);
        await writeObserved(host.observed, 'tool-results', stableSample(run.toolResults, run.dir));
        await writeObserved(host.observed, host.outputEvents, stableSample(run.events, run.dir));
      }
      expect(shapeOf(hookSample)).toEqual(shapeOf(await readObserved(host.observed, 'hook-events')));
    });

    test(host.answersTitle, async (ctx) => {
      suite.require(ctx);
      const { metadata, banner, photo, logo, tool } = fixtureNamed;
      const logs = await suite.scratch('linkgate-smoke-');
      const requestLog = path.join(logs, 'requests.jsonl');
      const withheld = 'withheld by the scripted hook';
      const { pre, post } = host.events;
      const ids = {
        metadata: id('read_metadata'),
        banner: id('read_banner'),
        photo: id('read_photo'),
        logo: id('read_logo'),
        embedded: id('embedded'),
      };
      const answers: Record<string, HookAnswer> = {
        [answerKey(pre, ids.metadata, metadata.uri)]: {
          stdout: host.denyBeforeRead('refused by the scripted hook: a metadata address'),
        },
        [answerKey(post, ids.banner, banner.uri)]: { stdout: host.replaceAfterRead(banner.uri, withheld) },
        [answerKey(pre, ids.photo, photo.uri)]: {
          stderr: 'blocked by the scripted hook with exit 2',
          exitCode: 2,
        },
      };
      const script: ScriptStep[] = [
        use(id('links'), host.tools.links, {}),
        read(ids.metadata, metadata.uri),
        read(ids.banner, banner.uri),
        read(ids.photo, photo.uri),
      ];
      const answered = [ids.metadata, ids.banner, ids.photo];
      if (host.postBlocksWholeResult) {
        answers[answerKey(post, ids.logo, logo.uri)] = {
          stderr: 'failed after the read with exit 2',
          exitCode: 2,
        };
        answers[answerKey(post, ids.embedded, '')] = {
          stdout: { decision: 'block', reason: 'embedded items withheld by the scripted hook' },
        };
        script.push(read(ids.logo, logo.uri), use(ids.embedded, host.tools.embedded, {}));
        answered.push(ids.logo, ids.embedded);
      }
      script.push({ text: 'done reading' });
      const command = await answeringCommand(path.join(logs, 'answers.json'), answers, path.join(logs, 'hooks.jsonl'));
      const run = await host.run({
        mcpServers: { fixture: fixtureServer(requestLog) },
        hookCommand: command,
        prompt: 'read the links of the fixture server',
        script,
      });
      suite.defer(() => run.cleanup());
      expect(run.exitCode, run.stderr).toBe(0);

      // refused before the read: the server never saw it
      expect(await serverReads(requestLog)).toEqual(host.postBlocksWholeResult ? [banner.uri, logo.uri] : [banner.uri]);
      const received = (callId: string) => host.resultText(run.toolResults[callId]);
      expect(received(ids.metadata)).toContain('refused by the scripted hook: a metadata address');
      expect(received(ids.photo)).toContain('blocked by the scripted hook with exit 2');
      expect(received(ids.banner)).toContain(withheld);
      if (host.isError !== undefined) {
        expect(host.isError(run.toolResults[ids.metadata])).toBe(true);
        expect(host.isError(run.toolResults[ids.photo])).toBe(true);
      }
      const toModel = JSON.stringify(run.modelRequests.map((r) => r.body));
      expect(toModel).not.toContain(banner.marker);
      if (host.postBlocksWholeResult) {
        // after the read, a block (or an exit 2) replaces the whole result with its reason
        expect(received(ids.logo)).toContain('failed after the read with exit 2');
        expect(received(ids.embedded)).toContain('embedded items withheld by the scripted hook');
        for (const body of [logo, tool]) expect(toModel).not.toContain(body.marker);
      }

      const sample = stableSample(
        Object.fromEntries(answered.map((callId) => [callId, run.toolResults[callId]])),
        run.dir,
      );
      if (record) await writeObserved(host.observed, 'hook-answers', { answers, toolResults: sample });
      const observed = (await readObserved(host.observed, 'hook-answers')) as { toolResults: unknown };
      expect(shapeOf(sample)).toEqual(shapeOf(observed.toolResults));
    });
  });
}
