/**
 * Reads the JSON of `pulumi preview --json --show-sames` (Pulumi 3.259 to 3.274): its steps' operation, URN, old
 * and new state, replaceReasons, and the markers of a replace's order (`oldState.delete: true` for
 * create-before-delete, `oldState.pendingReplacement: true` for deleteBeforeReplace). The stack and project
 * are read from the URNs, the only place the JSON holds them. Secrets arrive as `[secret]`, and only the
 * members in objects.ts are read (zod strips the rest).
 */
import { z } from "zod";
import { CliFailure } from "./failure";
import { readJsonInput } from "./json-input";
import {
  type DomainProps,
  domainProps,
  objectKind,
  objectName,
  ResourceState,
  type WebhookProps,
  webhookProps,
} from "./objects";
import { isRotation, type RotationMark, rotationMark } from "./review-rotation";
import { parseUrn, stackLabel, type UrnParts } from "./urn";

/** A step's old or new state, with the markers of a replace's order. */
const State = ResourceState.extend({
  delete: z.boolean().optional(),
  pendingReplacement: z.boolean().optional(),
});

const Step = z.looseObject({
  op: z.string(),
  urn: z.string(),
  oldState: State.optional(),
  newState: State.optional(),
  replaceReasons: z.array(z.string()).optional(),
});

const Diagnostic = z.looseObject({ severity: z.string().optional(), message: z.string().optional() });

/** The parts of a preview's JSON that review reads. */
const PreviewJson = z.looseObject({
  steps: z.array(Step),
  changeSummary: z.record(z.string(), z.number()).optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  diagnostics: z.array(Diagnostic).optional(),
});

/** What a step does to its object, in the report's words. */
export type ChangeOp = "create" | "replace" | "update" | "delete" | "same";

const OPS: Readonly<Record<string, ChangeOp>> = {
  create: "create",
  // An import adopts a webhook that is active already: nothing changes for deliveries or the quota.
  import: "same",
  replace: "replace",
  "create-replacement": "replace",
  update: "update",
  delete: "delete",
  same: "same",
  read: "same",
  refresh: "same",
};

/** One Webhook's or Domain's step. `before`/`after` hold the members objects.ts reads, nothing else. */
export type ObjectStep = {
  readonly op: ChangeOp;
  readonly name: string;
  readonly urn: string;
  /** The inputs that force a replace, from `replaceReasons`. */
  readonly replaceReasons: readonly string[];
  /** True for a deleteBeforeReplace replace (`oldState.pendingReplacement`). */
  readonly deleteFirst: boolean;
} & (
  | { readonly kind: "webhook"; readonly before?: WebhookProps; readonly after?: WebhookProps }
  | { readonly kind: "domain"; readonly before?: DomainProps; readonly after?: DomainProps }
);

/** One stack's preview, as review reads it. */
export interface StackPreview {
  /** The file it was read from (`-` for stdin). */
  readonly file: string;
  readonly project: string;
  readonly stack: string;
  /** `project/stack`. */
  readonly label: string;
  readonly steps: readonly ObjectStep[];
  /** False when the JSON was made without `--show-sames`, so unchanged resources are missing. */
  readonly samesKnown: boolean;
  /** The SecretRotations the preview holds, but those it deletes (review-rotation.ts). */
  readonly rotations: readonly RotationMark[];
  /** The stack config the preview shows (secrets as `[secret]`): `service:baseUrl`, whether `service:token` is set. */
  readonly config: Readonly<Record<string, unknown>>;
}

const NEXT = "give the output of `pulumi preview --json --show-sames` (one file per stack, or - for stdin)";

/** Reads one preview's JSON text; `file` names it in every failure. */
export function readPreview(file: string, text: string): StackPreview {
  const preview = readJsonInput(file, text, {
    schema: PreviewJson,
    what: "the JSON of a Pulumi preview",
    items: { of: (json) => json.steps, are: "steps" },
    next: NEXT,
    other: {
      member: "deployment",
      says: "a stack's state (`pulumi stack export`), not a preview's JSON; audit reads states",
    },
  });
  const failed = (preview.diagnostics ?? []).find((d) => d.severity === "error");
  if (failed) {
    throw new CliFailure(
      `${file}: the preview failed (${(failed.message ?? "")
        .trim()
        .split("\n")[0]!
        .replace(/^error: /, "")}): fix what it says, then preview again.`,
    );
  }
  // Each URN is parsed once: a preview may hold 100,000 steps.
  const parsed = preview.steps.map((step) => ({ step, urn: parseUrn(step.urn) }));
  const stacks = new Set(parsed.flatMap(({ urn }) => (urn ? [stackLabel(urn)] : [])));
  const first = parsed.find(({ urn }) => urn !== undefined)?.urn;
  if (!first) {
    throw new CliFailure(`${file}: the preview lists no resource, so its stack is unknown: ${NEXT}.`);
  }
  if (stacks.size > 1) {
    throw new CliFailure(`${file}: the preview holds resources of ${[...stacks].join(" and ")}: ${NEXT}.`);
  }
  const steps = parsed.flatMap(({ step, urn }) => (urn ? objectStep(step, urn) : []));
  const rotations = parsed.flatMap(({ step, urn }) => {
    const state = step.newState ?? step.oldState;
    if (!urn || !isRotation(state?.type ?? urn.type)) return [];
    return rotationMark(urn.name, step.op, state?.inputs) ?? [];
  });
  const sames = preview.steps.filter((s) => s.op === "same").length;
  return {
    file,
    project: first.project,
    stack: first.stack,
    label: stackLabel(first),
    steps,
    rotations,
    // Without --show-sames the JSON still counts unchanged resources in changeSummary, but lists only some.
    samesKnown: sames >= (preview.changeSummary?.same ?? 0),
    config: preview.config ?? {},
  };
}

function objectStep(step: z.output<typeof Step>, urn: UrnParts): ObjectStep[] {
  const state = step.newState ?? step.oldState;
  const kind = objectKind(state?.type ?? urn.type);
  // Own members only: an op such as "toString" is the input's, not the table's.
  const op = Object.hasOwn(OPS, step.op) ? OPS[step.op] : undefined;
  if (!kind || !op) return [];
  const parentName = state?.parent ? parseUrn(state.parent)?.name : undefined;
  // Each member is read on its own: one the program made secret arrives as "[secret]" and is left
  // unread, and the others stay.
  const read = (s: z.output<typeof State> | undefined) =>
    s === undefined ? undefined : kind === "webhook" ? webhookProps(s) : domainProps(s);
  return [
    {
      kind,
      op,
      name: objectName(urn, parentName),
      urn: step.urn,
      replaceReasons: step.replaceReasons ?? [],
      deleteFirst: step.oldState?.pendingReplacement === true,
      before: op === "create" ? undefined : read(step.oldState),
      after: op === "delete" ? undefined : read(step.newState ?? step.oldState),
    } as ObjectStep,
  ];
}
