/**
 * Keeps a failing resource from taking down a healthy component beside it.
 *
 * The engine ends a deployment as soon as one step fails: it lets the steps in flight finish, then closes
 * this plugin's connection, whether or not a Construct is still in flight. A Domain's Construct lasts as
 * long as its verification (its DomainVerification polls until the file is served), so when a sibling
 * Webhook's create failed in the meantime, the engine reported the Domain as failed too ("service:index:
 * Domain resource 'hooks' has a problem: grpc: the client connection is closing"), though nothing in it
 * failed, and cut its verification short.
 *
 * So the plugin answers a failure (a throw, or a Check with failures) only once the Constructs in flight
 * have been answered: the Domain finishes, and the engine then ends the deployment on the failure, which it
 * reports once, on its own resource. Two cases are not held. A failure inside a Domain (a resource whose
 * type chain holds the Domain's) is that Domain's own: it is answered at once, and it ends every hold,
 * since that Domain can no longer finish and the engine ends the deployment on it. Held beside it, a
 * sibling's failure only kept the deployment from ending until the stall below (5 s), while the program
 * waited on a Construct that would never be answered. And a hold ends when nothing has moved for a while
 * (no call in flight, none started or ended): with `--parallel 1` the engine may be waiting for the held
 * step before it runs the component's next one. A Cancel from the engine (Ctrl-C) ends every hold at once.
 *
 * A failing Domain's Construct is not answered with that failure. The engine would report it on the Domain
 * as well, and answer the program's registration of the Domain with an error that Pulumi's Python SDK
 * prints as a traceback ("resource monitor shut down"). Left in flight, the Construct is dropped when the
 * engine stops the program's resource monitor, and the program says only that it stopped.
 */
import type { Clock } from "../context/clock";
import { DOMAIN_COMPONENT_TYPE } from "../domain/declaration";

/** How long nothing may move before a held failure is answered anyway. */
const STALLED_MS = 5_000;
/** How often a held failure looks again whether it may go. */
const LOOK_MS = 250;

/** Whether `urn` names a resource inside a Domain: its type chain (`...Domain$...`) holds the component's type. */
export function insideComponent(urn: string): boolean {
  const qualifiedType = urn.split("::")[2] ?? "";
  return qualifiedType.includes(`${DOMAIN_COMPONENT_TYPE}$`);
}

/** The Constructs in flight in this plugin, and the failures held back until they are answered. */
export class ConstructGuard {
  private readonly inFlight = new Set<Promise<void>>();
  /** Engine calls in flight, other than Constructs and held failures. */
  private busy = 0;
  private lastMoved: number;
  private released = false;
  /** Resolves when `release` is called, waking every hold. */
  private readonly cancelled: Promise<void>;
  private cancel!: () => void;

  /**
   * @param clock - The process's clock (fake in tests).
   * @param stalledMs - How long nothing may move before a hold ends.
   */
  constructor(
    private readonly clock: Clock,
    private readonly stalledMs = STALLED_MS,
  ) {
    this.lastMoved = clock.now();
    this.cancelled = new Promise<void>((resolve) => {
      this.cancel = resolve;
    });
  }

  /** Records that a Construct began; call the function it returns once the Construct has been answered. */
  constructing(): () => void {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    this.inFlight.add(answered);
    this.moved();
    return () => {
      this.inFlight.delete(answered);
      answer();
      this.moved();
    };
  }

  /**
   * Runs one engine call on the resource `urn`. When it fails (it throws, or `failed` says its answer is a
   * failure), the failure is answered once the Constructs in flight have been (see above).
   */
  async call<T>(
    urn: string,
    run: () => Promise<T>,
    failed: (answer: T) => boolean = () => false,
  ): Promise<T> {
    this.busy++;
    this.moved();
    let outcome: { readonly answer: T } | { readonly error: unknown };
    try {
      outcome = { answer: await run() };
    } catch (error) {
      outcome = { error };
    } finally {
      this.busy--;
      this.moved();
    }
    const failure = "error" in outcome || failed(outcome.answer);
    if (failure && insideComponent(urn)) this.release();
    else if (failure) await this.constructsAnswered();
    if ("error" in outcome) throw outcome.error;
    return outcome.answer;
  }

  /**
   * Ends every hold, now and for the rest of the deployment: the engine asked the plugin to cancel, or a
   * Domain failed. Either way the deployment is ending, so holding a failure no longer lets any Domain
   * finish, and only delays the end.
   */
  release(): void {
    this.released = true;
    this.cancel();
  }

  private async constructsAnswered(): Promise<void> {
    while (this.inFlight.size > 0 && !this.released && !this.stalled()) {
      await Promise.race([Promise.all(this.inFlight), this.cancelled, this.clock.sleep(LOOK_MS)]);
    }
  }

  private stalled(): boolean {
    return this.busy === 0 && this.clock.now() - this.lastMoved >= this.stalledMs;
  }

  private moved(): void {
    this.lastMoved = this.clock.now();
  }
}
