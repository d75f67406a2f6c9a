/**
 * Creating a webhook, which the service cannot make idempotent. A create is sent once; when its answer is
 * lost, the active listing shows whether it landed, and if that cannot tell, the resource is kept in state
 * as pending so that the next run settles it instead of creating a second webhook.
 */

import { randomUUID } from "node:crypto";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import type { ServiceClient } from "../client/client";
import { KeyedLock } from "../context/keyed-lock";
import { contextKey, processContext } from "../context/process";
import { ConflictError, InvalidRequestError } from "../errors/api";
import { requestWords } from "../errors/base";
import { LifecycleError, PendingCreateError } from "../errors/lifecycle";
import { AmbiguousRequestError } from "../errors/transport";
import { forgetWebhooks } from "../lifecycle/listings";
import type { ResourceProps } from "../lifecycle/methods";
import { forgetAttempt, interruptedAttempt, noteAttempt } from "./attempts";
import { claim, claimedUuids, clearPending, hasPending, notePending, PENDING_ID_PREFIX } from "./claims";
import { type CreateKey, type CreatePlan, createKey, parseInputs, planCreate } from "./create-plan";
import {
  domainNotRegisteredError,
  identicalPendingError,
  inputRefusedError,
  pendingMessage,
  quotaError,
  reconcileConflictMessage,
  serviceRefusal,
} from "./messages";
import { awaitCandidates, candidates, reconcileWindowMs } from "./reconcile";
import { identityOf, type WebhookIdentity, type WebhookOutputs, type WebhookState } from "./schema";
import { outputsFor, pendingState } from "./state";
import { activeWebhooks, registeredHostnames, type WebhookRecord, webhookRecord } from "./wire";

const CREATE_LOCK = contextKey("webhook create lock", () => new KeyedLock());

/** Serializes creates and reconciliations of indistinguishable webhooks of one organization. */
function exclusively<T>(key: CreateKey, task: () => Promise<T>): Promise<T> {
  return processContext().get(CREATE_LOCK).run(`${key.credentials}\u0000${key.identity}`, task);
}

/** The planned webhook's answer once `hook` is known to be it, claimed for it. */
export function owned(hook: WebhookRecord, plan: CreatePlan) {
  claim(hook.webhookUuid);
  clearPending(plan.identity);
  return { id: hook.webhookUuid, outs: outputsFor(hook, plan.inputs, plan.client) };
}

interface Attempt {
  /** The placeholder id of a resource that is already pending. */
  readonly pendingId?: string | undefined;
  /** When the earliest create with an unknown outcome was sent (service clock, ISO). */
  readonly pendingSince?: string | undefined;
  readonly claimedElsewhere?: readonly string[] | undefined;
}

/**
 * Creates the planned webhook. Creates of webhooks the service could not tell apart run one at a time,
 * and none starts while such a create is pending.
 */
export function createPlanned(plan: CreatePlan) {
  return exclusively(plan.key, async () => {
    if (hasPending(plan.identity)) throw identicalPendingError(plan.identity);
    return createOnce(plan, {});
  });
}

/**
 * Sends the create once. An ambiguous answer is settled by re-listing; if the listing cannot settle it,
 * the resource goes pending (PendingCreateError), keeping the earliest attempt time, so that a webhook
 * from either attempt is recognised later.
 */
async function createOnce(plan: CreatePlan, prior: Attempt) {
  const { client, identity } = plan;
  const earlier = await earlierInterruptedCreate(plan, prior);
  if (earlier.hook) return owned(earlier.hook, plan);
  const sentAtLocal = processContext().clock.now();
  noteAttempt(plan.key, earlier.since ?? client.serverNow());
  try {
    const hook = webhookRecord(await client.webhooks.create(plan.body));
    return owned(hook, plan);
  } catch (error) {
    if (error instanceof ConflictError) {
      throw quotaError(identity, await activeWebhooks(client, { fresh: true }), MAX_ACTIVE_WEBHOOKS);
    }
    if (error instanceof InvalidRequestError) throw await refusal(client, identity, error);
    if (!(error instanceof AmbiguousRequestError)) throw error;
    const exclude = [...(prior.claimedElsewhere ?? [])];
    const windowMs = reconcileWindowMs(error.status !== undefined);
    const { found, since } = await awaitCandidates(
      {
        client,
        identity,
        sentAtLocal,
        since: prior.pendingSince === undefined ? undefined : Date.parse(prior.pendingSince),
        exclude,
      },
      windowMs,
    );
    if (found?.length === 1) return owned(found[0]!, plan);
    notePending(identity);
    const pendingSince = prior.pendingSince ?? new Date(since).toISOString();
    const conflict = found !== undefined && found.length > 1;
    throw new PendingCreateError(
      conflict
        ? reconcileConflictMessage(identity, pendingSince, found)
        : pendingMessage(identity, `${requestWords(error)}: ${error.detail}`, windowMs / 1000),
      prior.pendingId ?? `${PENDING_ID_PREFIX}${randomUUID()}`,
      pendingState(plan, pendingSince, [...exclude, ...claimedUuids()]),
      { cause: error, code: conflict ? "reconcile_conflict" : "outcome_unknown" },
    );
  } finally {
    // Whatever happened is now known to state: created, refused, or kept pending.
    forgetAttempt(plan.key);
    forgetWebhooks(client);
  }
}

/**
 * A create of this configuration that an ended process sent without learning its outcome (the user
 * pressed Ctrl-C twice, or a CI job was killed): the webhook it may have made, if one matching webhook
 * appeared since and nothing else stands for it; otherwise its time, to keep as the earliest attempt.
 * Within the re-listing window of that attempt, it waits for a late one to appear, as after a lost answer.
 */
async function earlierInterruptedCreate(
  plan: CreatePlan,
  prior: Attempt,
): Promise<{ hook?: WebhookRecord; since?: number }> {
  if (prior.pendingSince !== undefined) return {};
  const { client, identity } = plan;
  const note = interruptedAttempt(plan.key, client.serverNow());
  if (!note) return {};
  const exclude = [...(prior.claimedElsewhere ?? [])];
  // The service may still be working on that request, as after a lost answer: look for as long.
  const left = note.since + reconcileWindowMs(false) - client.serverNow();
  const search = { client, identity, since: note.since, exclude };
  const found =
    left > 0
      ? ((await awaitCandidates({ ...search, sentAtLocal: processContext().clock.now() }, left)).found ?? [])
      : await candidates(search);
  if (found.length === 1) {
    forgetAttempt(plan.key);
    return { hook: found[0] };
  }
  if (found.length > 1) {
    forgetAttempt(plan.key);
    const since = new Date(note.since).toISOString();
    throw new PendingCreateError(
      reconcileConflictMessage(identity, since, found),
      prior.pendingId ?? `${PENDING_ID_PREFIX}${randomUUID()}`,
      pendingState(plan, since, [...exclude, ...claimedUuids()]),
      { code: "reconcile_conflict" },
    );
  }
  return { since: note.since };
}

/** A 400 (403 on v1.4) to a create: most often an endpoint host that is not a registered domain. */
async function refusal(client: ServiceClient, identity: WebhookIdentity, error: InvalidRequestError) {
  const host = new URL(identity.endpoint).hostname;
  const hostnames = await registeredHostnames(client, { fresh: true }).catch(() => undefined);
  if (hostnames && !hostnames.includes(host)) {
    return domainNotRegisteredError(identity, host, hostnames);
  }
  return inputRefusedError(identity, serviceRefusal(error), error);
}

/**
 * Settles a pending webhook: adopts the one that appeared, or creates it if none did. The search is for
 * the webhook that state recorded as pending; the create, if one is needed, is planned from `news`.
 */
export async function settle(
  id: string,
  old: WebhookState,
  news: ResourceProps,
): Promise<{ outs: WebhookOutputs }> {
  const plan = planCreate(parseInputs(news), news.__provider);
  const { client } = plan;
  const identity = identityOf(old);
  return exclusively(createKey(client, identity), async () => {
    const exclude = old.claimedElsewhere ?? [];
    const found = await candidates({ client, identity, since: Date.parse(old.pendingSince!), exclude });
    if (found.length === 1) return { outs: owned(found[0]!, plan).outs };
    const attempt = { pendingId: id, pendingSince: old.pendingSince, claimedElsewhere: exclude };
    if (found.length > 1) {
      throw new PendingCreateError(
        reconcileConflictMessage(identity, old.pendingSince!, found),
        id,
        pendingState(plan, old.pendingSince!, [...exclude, ...claimedUuids()]),
        { code: "reconcile_conflict" },
      );
    }
    return { outs: (await createOnce(plan, attempt)).outs };
  });
}

/** Deletes a pending webhook: deactivates the one its create left behind, if exactly one appeared. */
export async function removePending(old: WebhookState, client: ServiceClient): Promise<void> {
  const identity = identityOf(old);
  await exclusively(createKey(client, identity), async () => {
    const since = Date.parse(old.pendingSince!);
    const found = await candidates({ client, identity, since, exclude: old.claimedElsewhere ?? [] });
    if (found.length > 1) {
      throw new LifecycleError(
        "reconcile_conflict",
        reconcileConflictMessage(identity, old.pendingSince!, found),
      );
    }
    if (found[0]) await client.webhooks.deactivate(found[0].webhookUuid);
    clearPending(identity);
  });
}
