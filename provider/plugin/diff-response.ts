/**
 * Writing a diff's detailed diff (lifecycle/detailed-diff.ts) into the engine's DiffResponse, which
 * `@pulumi/pulumi/provider`'s server (3.270) builds itself and fills with `changes`, `replaces` and
 * `deleteBeforeReplace` only: the provider plugin writes it from the Diff handler it hooks
 * (plugin/server-hooks.ts). The dynamic-provider host drops a detailed diff the same way, and it is the
 * program's process, shared with every other dynamic provider: the package changes nothing there, so a
 * dynamic Webhook's preview shows the engine's own comparison (docs/resources.md says what it shows).
 * docs/upstream/pulumi-nodejs-detailed-diff.patch is the change to Pulumi that carries it in both servers.
 */
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
