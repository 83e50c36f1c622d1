import type { Decision } from '../decision/decision.ts';
import type { DecidedHere } from '../flow/link-decider.ts';
import type { LinkStep } from '../flow/link-steps.ts';
import { RefusedAddresses } from './refused-addresses.ts';
import type { Noting } from './refusals-noted.ts';

// One server batch answering several tool calls comes whole: the answer naming an address and the answer refusing
// its link may stand in either order. A member's refusals are made in two places: its links' decisions here, and,
// where the front end judges the items itself (the proxy), the links it decides in JSON texts and
// `structuredContent`. Both are noted in the batch's one ledger. The decorator hands a member to its front end once
// every member's links are decided and searched for what the others' link decisions refused (and what their front end
// decided so far); a front end that judges the items hands none of them to the host before every member was judged,
// and then searches each for what the others' front end decided only: each sibling refusal is searched for once per
// member, and a member the front end never takes had the decorator's search. No member waits for another to be handed
// to the host, so none waits for itself (a wait for each sibling's noting before handing any on would: each would wait
// for the other's).

/** The tool results of one server batch being taken apart: the ledger of their refusals. */
export class BatchRefusals {
  // each member's refusals, by the member
  readonly #refusals = new Map<object, Refusals>();
  #undecided = 0;
  #unjudged = 0;
  #waitingDecided: (() => void)[] = [];
  #waitingJudged: (() => void)[] = [];
  // the members' notings (each ends once its member was passed on)
  readonly #notings = new Set<Noting>();

  /** `noteDecided`: keeps a link the front end decided in the session's refusals too. */
  constructor(
    private readonly capBytes: number,
    private readonly noteDecided: DecidedHere,
  ) {}

  /**
   * A member that takes part (joined while the batch is taken apart, before any member is decided), its refusals
   * `noted` meanwhile: its siblings search for them through the ledger, so none waits for that noting to end.
   */
  join(noted: Noting): BatchMember {
    this.#notings.add(noted);
    this.#undecided += 1;
    this.#unjudged += 1;
    const refusals: Refusals = { steps: [], decided: [] };
    let decided = false;
    let taken = false;
    let judged = false;
    const key = {};
    this.#refusals.set(key, refusals);
    const judgedNow = () => {
      if (judged) return;
      judged = true;
      this.#unjudged -= 1;
      if (this.#unjudged === 0) for (const resolve of this.#waitingJudged.splice(0)) resolve();
    };
    const front: FrontMember = {
      decided: (uri, decision) => {
        this.noteDecided(uri, decision);
        refusals.decided.push([uri, decision]);
      },
      judged: judgedNow,
      all: () => waitUntil(this.#unjudged, this.#waitingJudged),
      named: (message) => this.#named(key, message, false),
    };
    return {
      decided: (steps) => {
        if (decided) return;
        decided = true;
        refusals.steps = steps;
        this.#undecided -= 1;
        if (this.#undecided === 0) for (const resolve of this.#waitingDecided.splice(0)) resolve();
      },
      all: () => waitUntil(this.#undecided, this.#waitingDecided),
      named: (message) => this.#named(key, message, true),
      notings: this.#notings,
      take: () => {
        if (taken || judged) return null;
        taken = true;
        return front;
      },
      handedOn: () => {
        if (!taken) judgedNow();
      },
    };
  }

  /** Characters of members' messages searched for their siblings' refusals so far (each member's once). */
  get searchedChars(): number {
    return this.#searchedChars;
  }

  #searchedChars = 0;

  // whether `message` names the address of a link another member than `key` refused for its address: one its link
  // decisions refused (`steps`: the decorator's search) or its front end decided (always)
  #named(key: object, message: unknown, steps: boolean): boolean {
    const refused = new RefusedAddresses(this.capBytes);
    for (const [member, refusals] of this.#refusals) {
      if (member === key) continue;
      if (steps) refused.note(refusals.steps);
      for (const [uri, decision] of refusals.decided) refused.noteDecided(uri, decision);
    }
    if (refused.size === 0) return false;
    const named = refused.names(message);
    this.#searchedChars += refused.searchedChars;
    return named;
  }
}

// one member's refusals: its links' steps (the decorator's) and the links its front end decided
interface Refusals {
  steps: readonly (LinkStep | undefined)[];
  readonly decided: [string, Decision][];
}

/** One tool result of a batch, as the decorator routes it. */
export interface BatchMember {
  /** its link steps are decided (once; again: nothing): every member decided ends `all` */
  decided(steps: readonly (LinkStep | undefined)[]): void;
  /** resolves once every member of the batch is decided */
  all(): Promise<void>;
  /** whether `message` names the address of a link another member refused for its address (noted so far) */
  named(message: unknown): boolean;
  /** the notings of every member (`Noting.earlier` waits for none of them: the ledger has their refusals) */
  readonly notings: ReadonlySet<Noting>;
  /** the front end takes it as it is passed on, to judge its items (once; else null) */
  take(): FrontMember | null;
  /** the decorator is done with it (passed on or withheld): untaken, it counts as judged */
  handedOn(): void;
}

/** One tool result of a batch, as the front end that judges its items (the proxy) takes it. */
export interface FrontMember {
  /** notes a link the front end decided in it (in the session too) */
  readonly decided: DecidedHere;
  /** every refusal the front end decided in it is noted (once; again: nothing) */
  judged(): void;
  /** resolves once every member of the batch is judged (by the front end, or handed on untaken) */
  all(): Promise<void>;
  /**
   * whether `message` names the address of a link another member's front end refused for its address (those its link
   * decisions refused were searched for by the decorator before it handed the member on)
   */
  named(message: unknown): boolean;
}

function waitUntil(count: number, waiting: (() => void)[]): Promise<void> {
  return new Promise<void>((resolve) => {
    if (count === 0) resolve();
    else waiting.push(resolve);
  });
}
