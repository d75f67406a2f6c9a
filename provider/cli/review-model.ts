/**
 * What review reports, worked out from the previews (and, with --live, one listing per organization):
 * each Webhook and Domain change per stack in plain words, and the quota of each organization after the
 * change. The Markdown and JSON renderings both print this model, so they always say the same. Its
 * structured members hold the input's values as they are; its sentences (impact, delivers, missing) show
 * each such value as a code span (untrusted.ts), so that a reader sees it and nothing in it renders.
 */
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import { deliveryOf, endpointOf, sameDelivery, type WebhookView } from "./deliveries";
import { type DomainProps, filterViews, type WebhookProps } from "./objects";
import type { ChangeOp, ObjectStep, StackPreview } from "./preview-json";
import { markImpact, NOT_A_ROTATION, type RotationReview, stepOneImpact } from "./review-rotation";
import { codeSpan } from "./untrusted";

/** An organization's active webhooks, as one listing read them. */
export interface LiveListing {
  /** Its name, from the listed objects' owner; undefined when it has none. */
  readonly organization: string | undefined;
  readonly webhooks: readonly WebhookView[];
}

/** One Webhook or Domain change. */
export interface ChangeReview {
  readonly kind: "webhook" | "domain";
  readonly op: Exclude<ChangeOp, "same">;
  readonly name: string;
  /** The inputs that force a replace. */
  readonly replaceReasons: readonly string[];
  /** A replace's order: both deliver for a moment, or neither does. */
  readonly order: "create-before-delete" | "delete-before-replace" | undefined;
  /**
   * The step of a secret rotation a Webhook's change is at: 1 for a replace forced by `secretKey`; null
   * for any other change, and for a Domain. A step two changes no Webhook: see StackReview.rotations.
   */
  readonly rotationStep: 1 | null;
  /** What it does to deliveries, in plain words, one sentence each. */
  readonly impact: readonly string[];
}

/** One stack's changes. */
export interface StackReview {
  /** `project/stack`. */
  readonly stack: string;
  readonly file: string;
  readonly changes: readonly ChangeReview[];
  /**
   * Each secret rotation of the change: the step one of a Webhook replaced because of `secretKey`, and
   * each changed SecretRotation (a step two, above all), with what the receiver must hold before the merge.
   */
  readonly rotations: readonly RotationReview[];
  /** The unchanged Webhooks and Domains; null when the preview was made without `--show-sames`. */
  readonly unchanged: { readonly webhooks: number; readonly domains: number } | null;
}

/** An organization's webhook quota after the change. */
export interface QuotaReview {
  readonly limit: number;
  /** Where the counts come from: the stacks in the report, or a listing of the organization (--live). */
  readonly source: "stacks" | "live";
  /** Active webhooks after the change; null when it cannot be known. */
  readonly after: number | null;
  /** The most that are active at once while the update runs; null when it cannot be known. */
  readonly peak: number | null;
  /** Listed webhooks that none of the report's stacks knows of (--live only). */
  readonly unknownToStacks: readonly {
    readonly uuid: string;
    /** Null when the listing gave none. */
    readonly endpoint: string | null;
    readonly delivers: string;
  }[];
  /** Why a figure is missing, or what it leaves out; null when nothing is. */
  readonly missing: string | null;
}

/** One organization's part of the report. */
export interface OrganizationReview {
  /** Its name; when `named` is false, words saying which stack's organization it is. */
  readonly organization: string;
  /** False when no object and no listing names the organization (its stack has no webhook or domain yet). */
  readonly named: boolean;
  readonly quota: QuotaReview;
  readonly stacks: readonly StackReview[];
}

/** The whole review, as `--format json` prints it. */
export interface Review {
  /** The document's format version. */
  readonly version: 1;
  readonly organizations: readonly OrganizationReview[];
}

const view = (props: WebhookProps | undefined): WebhookView => ({
  uuid: props?.webhookUuid,
  endpoint: props?.endpoint,
  hidden: props?.hidden,
  channel: props?.channel ?? "default",
  filters: filterViews(props?.filters),
});

/** What a replace that creates first means for the receiver, by whether it changes the secret. */
const OVERLAP = {
  sameSecret:
    "Overlap: the new webhook is created before the old one is deleted, so both deliver for a moment: the receiver may see a delivery twice (deduplicate by update_counter).",
  newSecret:
    "Overlap: the new webhook is created before the old one is deleted, so both deliver for a moment, each signed with its own secret: the receiver needs both secrets and its update_counter guard.",
};

/** A Webhook's step, and the SecretRotation that names it, if any. */
type WebhookStep = Extract<ObjectStep, { kind: "webhook" }>;

/** A replace forced by `secretKey`: a rotation's step one. */
const rotates = (step: ObjectStep) =>
  step.kind === "webhook" && step.op === "replace" && step.replaceReasons.includes("secretKey");

function webhookImpact(step: WebhookStep, rotation: RotationReview | undefined): string[] {
  const before = view(step.before);
  const after = view(step.after);
  const stops = () => `${endpointOf(before)} stops receiving ${deliveryOf(before)}.`;
  const starts = () => `${endpointOf(after)} starts receiving ${deliveryOf(after)}.`;
  switch (step.op) {
    case "create":
      return [starts()];
    case "delete":
      return [stops()];
    case "update":
      return [`${endpointOf(after)} keeps receiving ${deliveryOf(after)}.`];
    default: {
      const newSecret = step.replaceReasons.includes("secretKey");
      const secret = newSecret ? ", signed with the new secret" : "";
      const what = sameDelivery(before, after)
        ? [`${endpointOf(after)} keeps receiving ${deliveryOf(after)}${secret}.`]
        : [stops(), starts()];
      const order = step.deleteFirst
        ? `Gap: the old webhook is deleted first (deleteBeforeReplace), so ${endpointOf(before)} receives no ${deliveryOf(before)} until the new webhook is created.`
        : OVERLAP[newSecret ? "newSecret" : "sameSecret"];
      return [...what, order, ...(rotation?.impact ?? [NOT_A_ROTATION])];
    }
  }
}

function domainImpact(step: Extract<ObjectStep, { kind: "domain" }>): string[] {
  const before = (step.before as DomainProps | undefined)?.domainName ?? step.name;
  const after = (step.after as DomainProps | undefined)?.domainName ?? step.name;
  const [was, is] = [codeSpan(before), codeSpan(after)];
  switch (step.op) {
    case "create":
      return [`${is} is registered: webhooks may then target ${codeSpan(`https://${after}/`)}.`];
    case "delete":
      return [
        `${was} is deactivated: no webhook may target it afterwards (the service refuses while one does).`,
      ];
    case "update":
      return [`${is} stays registered.`];
    default:
      return before === after
        ? [`${is} is registered again, and stays usable by its webhooks.`]
        : [
            `${is} is registered ${step.deleteFirst ? "after" : "before"} ${was} is deactivated; webhooks on ${codeSpan(`https://${before}/`)} must move first (the service refuses to deactivate a domain an active webhook targets).`,
          ];
  }
}

function changeOf(step: ObjectStep, rotation: RotationReview | undefined): ChangeReview {
  return {
    kind: step.kind,
    op: step.op as ChangeReview["op"],
    name: step.name,
    replaceReasons: step.replaceReasons,
    order:
      step.op !== "replace" ? undefined : step.deleteFirst ? "delete-before-replace" : "create-before-delete",
    rotationStep: rotation ? 1 : null,
    impact: step.kind === "webhook" ? webhookImpact(step, rotation) : domainImpact(step),
  };
}

const OP_ORDER: Readonly<Record<ChangeOp, number>> = { replace: 0, delete: 1, create: 2, update: 3, same: 4 };

function stackReview(preview: StackPreview): StackReview {
  const changed = preview.steps
    .filter((s) => s.op !== "same")
    .sort((a, b) => OP_ORDER[a.op] - OP_ORDER[b.op] || a.name.localeCompare(b.name));
  const same = (kind: ObjectStep["kind"]) =>
    preview.steps.filter((s) => s.op === "same" && s.kind === kind).length;
  const marks = new Map(preview.rotations.flatMap((m) => (m.record ? [[m.record.webhook, m] as const] : [])));
  const stepOnes = new Map(
    changed
      .filter(rotates)
      .map((s) => [
        s.name,
        stepOneImpact(s.name, view(s.after as WebhookProps), marks.get(s.name), s.deleteFirst),
      ]),
  );
  const others = preview.rotations
    .filter((m) => m.changed && !(m.record && stepOnes.has(m.record.webhook)))
    .map(markImpact);
  return {
    stack: preview.label,
    file: preview.file,
    changes: changed.map((s) => changeOf(s, s.kind === "webhook" ? stepOnes.get(s.name) : undefined)),
    rotations: [...stepOnes.values(), ...others],
    unchanged: preview.samesKnown ? { webhooks: same("webhook"), domains: same("domain") } : null,
  };
}

/** The organization an existing object belongs to, as its state recorded it. */
function ownerOf(step: ObjectStep): string | undefined {
  const before = step.before as (WebhookProps & DomainProps) | undefined;
  return before?.owner?.organization ?? before?.organization;
}

/** The organizations a stack's existing objects belong to, in the order its preview lists them. */
export function organizationsOf(preview: StackPreview): string[] {
  return [...new Set(preview.steps.flatMap((step) => ownerOf(step) ?? []))];
}

/** The most stacks a sentence names; the others are counted. */
const NAMED_STACKS = 3;

/** "`infra/dev` and `infra/prod`", or "`a`, `b`, `c` and 4 other stacks". */
function stackList(labels: readonly string[]): string {
  const named = labels.slice(0, NAMED_STACKS).map((label) => codeSpan(label));
  const others = labels.length - named.length;
  if (others > 0) return `${named.join(", ")} and ${others} other stack${others === 1 ? "" : "s"}`;
  return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

const webhookSteps = (previews: readonly StackPreview[]) =>
  previews.flatMap((p) => p.steps).filter((s) => s.kind === "webhook");
const count = (steps: readonly ObjectStep[], ops: readonly ChangeOp[]) =>
  steps.filter((s) => ops.includes(s.op)).length;

function quotaOf(previews: readonly StackPreview[], live: LiveListing | undefined): QuotaReview {
  const steps = webhookSteps(previews);
  const creates = count(steps, ["create"]);
  const overlapping = steps.filter((s) => s.op === "replace" && !s.deleteFirst).length;
  const withoutSames = previews.filter((p) => !p.samesKnown).map((p) => p.label);
  const missingSames =
    withoutSames.length === 0
      ? undefined
      : `the preview of ${stackList(withoutSames)} was made without \`--show-sames\`, so its unchanged webhooks are missing: run \`pulumi preview --json --show-sames\``;
  if (live) {
    const listed = new Set(live.webhooks.map((w) => w.uuid));
    const known = new Set(steps.flatMap((s) => (s.before?.webhookUuid ? [s.before.webhookUuid] : [])));
    const leaving = steps.filter(
      (s) => (s.op === "delete" || s.op === "replace") && listed.has(s.before?.webhookUuid),
    ).length;
    return {
      limit: MAX_ACTIVE_WEBHOOKS,
      source: "live",
      after: listed.size - leaving + creates + count(steps, ["replace"]),
      peak: listed.size + creates + overlapping,
      // Without the unchanged webhooks, a stack's own would be named as unknown to it.
      unknownToStacks: missingSames
        ? []
        : live.webhooks
            .filter((w) => w.uuid !== undefined && !known.has(w.uuid))
            .map((w) => ({ uuid: w.uuid!, endpoint: w.endpoint ?? null, delivers: deliveryOf(w) })),
      missing: missingSames
        ? `${missingSames}; the webhooks none of the stacks knows of cannot be told apart`
        : null,
    };
  }
  if (missingSames) {
    return {
      limit: MAX_ACTIVE_WEBHOOKS,
      source: "stacks",
      after: null,
      peak: null,
      unknownToStacks: [],
      missing: `${missingSames}, or add \`--live\` to count the organization's webhooks`,
    };
  }
  const before = count(steps, ["same", "update", "replace", "delete"]);
  return {
    limit: MAX_ACTIVE_WEBHOOKS,
    source: "stacks",
    after: count(steps, ["same", "update", "replace", "create"]),
    peak: before + creates + overlapping,
    unknownToStacks: [],
    missing: null,
  };
}

/**
 * The review of `previews`, grouped by organization: each existing object's, as its state recorded it;
 * a new one's is its stack's (the organization the stack's token reaches, when `live` listed it, keyed
 * by stack label; else that of the stack's first existing object). A stack whose resources reach several
 * organizations (each with its own `connection`) appears under each.
 */
export function reviewOf(
  previews: readonly StackPreview[],
  live: ReadonlyMap<string, LiveListing> = new Map(),
): Review {
  const groups = new Map<string, StackPreview[]>();
  const unnamed = new Set<string>();
  for (const preview of previews) {
    let fallback = live.get(preview.label)?.organization ?? organizationsOf(preview)[0];
    if (fallback === undefined) {
      fallback = `(the organization of ${preview.label}, which has no webhook or domain yet)`;
      unnamed.add(fallback);
    }
    const parts = new Map<string, ObjectStep[]>([[fallback, []]]);
    for (const step of preview.steps) {
      const organization = ownerOf(step) ?? fallback;
      const part = parts.get(organization);
      if (part) part.push(step);
      else parts.set(organization, [step]);
    }
    // A rotation goes with its Webhook's organization; one whose Webhook is not in the preview, with the stack's.
    const rotationsOf = (organization: string, steps: readonly ObjectStep[]) =>
      preview.rotations.filter((mark) => {
        const webhook = mark.record?.webhook;
        const named = steps.some((s) => s.kind === "webhook" && s.name === webhook);
        const anywhere = preview.steps.some((s) => s.kind === "webhook" && s.name === webhook);
        return named || (!anywhere && organization === fallback);
      });
    for (const [organization, steps] of parts) {
      const rotations = rotationsOf(organization, steps);
      if (steps.length === 0 && rotations.length === 0 && parts.size > 1) continue;
      const part = { ...preview, steps, rotations };
      const group = groups.get(organization);
      if (group) group.push(part);
      else groups.set(organization, [part]);
    }
  }
  return {
    version: 1,
    organizations: [...groups].map(([organization, group]) => ({
      organization,
      named: !unnamed.has(organization),
      // A listing counts only for the organization it listed.
      quota: quotaOf(
        group,
        group.map((p) => live.get(p.label)).find((l) => l?.organization === organization),
      ),
      stacks: group.map(stackReview),
    })),
  };
}
