/**
 * Writing a diff's detailed diff (lifecycle/detailed-diff.ts) into the engine's DiffResponse, which the
 * Node SDK's servers build themselves and fill with `changes`, `replaces` and `deleteBeforeReplace` only:
 * both `@pulumi/pulumi/provider`'s server (the provider plugin, which hooks its Diff handler in
 * plugin/server-hooks.ts) and the dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`, 3.270).
 *
 * The dynamic-provider host is the program's process for every dynamic resource, not ours, and builds its
 * gRPC service before any provider is loaded. So the detailed diff travels with the answer: its `changes`
 * is read by the host's Diff handler right before, in the same synchronous step, it calls
 * `DiffResponse.prototype.setChanges` on the response it sends. `answerForHost` installs, once per host
 * process, a `setChanges` that writes the detailed diff of the answer read just before; nothing else in
 * the host changes. Where the contract does not hold (another host, a host that changed its handler), the
 * answer goes out without a detailed diff, and the engine shows its own comparison, as before.
 */
import { dirname, join } from "node:path";
import type { DetailedDiff } from "../lifecycle/detailed-diff";

/** The part of a `pulumirpc.PropertyDiff` message this module writes. */
interface PropertyDiffMessage {
  setKind(kind: number): unknown;
  setInputdiff(inputDiff: boolean): unknown;
}

/** The part of a `pulumirpc.DiffResponse` message this module writes. */
export interface DiffResponseMessage {
  getDetaileddiffMap(): { set(key: string, value: PropertyDiffMessage): unknown };
  setHasdetaileddiff(value: boolean): unknown;
  setDiffsList(value: string[]): unknown;
  setChanges(value: number): unknown;
}

/** `@pulumi/pulumi/proto/provider_pb`, as far as this module uses it. */
export interface ProviderProto {
  readonly DiffResponse: { readonly prototype: DiffResponseMessage };
  readonly PropertyDiff: (new () => PropertyDiffMessage) & {
    readonly Kind: Readonly<Record<string, number>>;
  };
}

/**
 * Writes `detailed` into `response`, and the changed top-level keys as its `diffs`. Nothing for an empty one: the engine then compares as it always did.
 */
export function writeDetailedDiff(
  response: DiffResponseMessage,
  detailed: DetailedDiff,
  proto: ProviderProto,
) {
  const paths = Object.keys(detailed);
  if (paths.length === 0) return;
  const map = response.getDetaileddiffMap();
  for (const path of paths) {
    const diff = new proto.PropertyDiff();
    const { kind, inputDiff } = detailed[path]!;
    diff.setKind(proto.PropertyDiff.Kind[kind]!);
    diff.setInputdiff(inputDiff);
    map.set(path, diff);
  }
  response.setHasdetaileddiff(true);
  response.setDiffsList(paths);
}

/** Shared by every copy of this package in the host process: the detailed diff of the answer being read. */
const PENDING = Symbol.for("@service/pulumi/detailed-diff-pending");
/** Marks the host's DiffResponse prototype once its `setChanges` writes pending detailed diffs. */
const INSTALLED = Symbol.for("@service/pulumi/detailed-diff-installed");

type Slots = Record<symbol, unknown>;

/** The host's own provider_pb module, when this process is the dynamic-provider host and has loaded it. */
function hostProto(): ProviderProto | undefined {
  const main = require.main?.filename;
  if (!main || !/[\\/]cmd[\\/]dynamic-provider[\\/]index\.js$/.test(main)) return undefined;
  const proto = require.cache[join(dirname(main), "../../proto/provider_pb.js")]?.exports as
    | Partial<ProviderProto>
    | undefined;
  const response = proto?.DiffResponse?.prototype;
  if (typeof response?.setChanges !== "function" || typeof response.setHasdetaileddiff !== "function") {
    return undefined;
  }
  return typeof proto?.PropertyDiff?.Kind === "object" ? (proto as ProviderProto) : undefined;
}

/** Makes the host's `setChanges` write the detailed diff of the answer whose `changes` was just read. */
function install(proto: ProviderProto): void {
  const prototype = proto.DiffResponse.prototype as DiffResponseMessage & Slots;
  if (prototype[INSTALLED]) return;
  const setChanges = prototype.setChanges;
  prototype.setChanges = function (this: DiffResponseMessage, value: number) {
    const answered = setChanges.call(this, value);
    const pending = (globalThis as Slots)[PENDING] as DetailedDiff | undefined;
    (globalThis as Slots)[PENDING] = undefined;
    if (pending) writeDetailedDiff(this, pending, proto);
    return answered;
  };
  prototype[INSTALLED] = true;
}

/** A diff's answer, as a lifecycle's `diff` gives it. */
interface DiffAnswer {
  readonly changes?: boolean;
  readonly detailedDiff?: DetailedDiff;
}

/**
 * The answer to give the dynamic-provider host for the lifecycle's `answer`: the same members, without
 * `detailedDiff`, whose `changes`, once read, has the host's next `setChanges` write the detailed diff.
 * Outside the host, `answer` as it is.
 */
export function answerForHost<T extends DiffAnswer>(answer: T): Omit<T, "detailedDiff"> | T {
  const { detailedDiff, changes, ...rest } = answer;
  const proto = detailedDiff === undefined ? undefined : hostProto();
  if (!proto) return answer;
  install(proto);
  return Object.defineProperty(rest, "changes", {
    enumerable: true,
    get() {
      const slots = globalThis as Slots;
      slots[PENDING] = detailedDiff;
      // Read by anything but the host's handler: no setChanges follows in this step, and none may take it.
      queueMicrotask(() => {
        if (slots[PENDING] === detailedDiff) slots[PENDING] = undefined;
      });
      return changes;
    },
  }) as Omit<T, "detailedDiff">;
}
