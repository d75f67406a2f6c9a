/**
 * Preview JSON as Pulumi 3.259 to 3.274 write it (`pulumi preview --json --show-sames`), built step by step
 * for review's tests: Webhook steps (create, replace in either order, delete, same), the stack's own
 * step, and a file of them. Each Webhook's `secretKey` is a planted plain value, which the engine would
 * mask: a test that finds it in a report shows that review read it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { webhook as webhookDeclaration } from "../../provider/registry";
import { HOST } from "./fixtures";

export const dir = mkdtempSync(join(tmpdir(), "cli-review-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

export const PLANTED = "whsec-planted-in-preview-9f8e7d";
export const HOOK = `https://${HOST}/service/events`;
export const WEBHOOK_TYPE = webhookDeclaration.token;

export interface Hook {
  readonly uuid?: string;
  readonly endpoint?: string;
  readonly channel?: string;
  readonly filters?: { key: string; value?: string; values?: string[] }[];
}

export const urnOf = (stack: string, type: string, name: string, project = "infra") =>
  `urn:pulumi:${stack}::${project}::${type}::${name}`;

export const hookState = (
  stack: string,
  name: string,
  hook: Hook,
  extra: Record<string, unknown> = {},
  type = WEBHOOK_TYPE,
) => ({
  urn: urnOf(stack, type, name),
  type,
  custom: true,
  ...extra,
  inputs: {
    endpoint: hook.endpoint ?? HOOK,
    channel: hook.channel ?? name,
    filters: hook.filters ?? [{ key: "activity.name", value: "authentication" }],
    // What the engine masks; a plain value here shows that review never reads the member.
    secretKey: PLANTED,
  },
  outputs: hook.uuid
    ? {
        webhookUuid: hook.uuid,
        owner: { organization: "acme", username: "acme-alice" },
        secretKeyHash: PLANTED,
      }
    : {},
});

export type Step = Record<string, unknown>;
export const same = (stack: string, name: string, hook: Hook): Step => ({
  op: "same",
  urn: urnOf(stack, WEBHOOK_TYPE, name),
  oldState: hookState(stack, name, hook),
  newState: hookState(stack, name, hook),
});
export const replace = (
  stack: string,
  name: string,
  from: Hook,
  to: Hook,
  reasons: string[],
  deleteFirst = false,
): Step => ({
  op: "replace",
  urn: urnOf(stack, WEBHOOK_TYPE, name),
  oldState: hookState(stack, name, from, deleteFirst ? { pendingReplacement: true } : { delete: true }),
  newState: hookState(stack, name, to),
  replaceReasons: reasons,
});
export const create = (stack: string, name: string, hook: Hook): Step => ({
  op: "create",
  urn: urnOf(stack, WEBHOOK_TYPE, name),
  newState: hookState(stack, name, hook),
});
export const remove = (stack: string, name: string, hook: Hook): Step => ({
  op: "delete",
  urn: urnOf(stack, WEBHOOK_TYPE, name),
  oldState: hookState(stack, name, hook),
});
export const stackStep = (stack: string): Step => ({
  op: "same",
  urn: urnOf(stack, "pulumi:pulumi:Stack", `infra-${stack}`),
});

export function previewFile(name: string, steps: Step[], options: { sames?: boolean } = {}): string {
  const shown =
    options.sames === false ? steps.filter((s) => s.op !== "same" || String(s.urn).includes("Stack")) : steps;
  const summary: Record<string, number> = {};
  for (const step of steps) summary[step.op as string] = (summary[step.op as string] ?? 0) + 1;
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      config: { "service:token": "[secret]" },
      steps: shown,
      duration: 1,
      changeSummary: summary,
    }),
  );
  return path;
}

export const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

/** A SecretRotation's step, as a program at `inputs.step` shows it in a preview. */
export const rotationStep = (stack: string, name: string, op: string, inputs: unknown): Step => {
  const state = {
    urn: urnOf(stack, "service:index:SecretRotation", name),
    type: "service:index:SecretRotation",
    custom: false,
    inputs,
  };
  return { op, urn: state.urn, oldState: state, newState: state };
};
