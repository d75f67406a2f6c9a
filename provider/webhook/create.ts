/**
 * Creating a webhook, which the service cannot make idempotent. A create is planned once from its parsed
 * inputs, then sent once; when its response is lost, the active listing shows whether it landed, and if
 * that cannot tell, the resource is kept in state as pending so that the next run settles it instead of
 * creating a second webhook. Here too: the one place that reads the client's wire names of a webhook, and
 * the notes that let a rerun find a create an ended process sent.
 */

import { createHash, randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Timestamp, WireOwner } from "../../contract/common-types";
import { MAX_ACTIVE_WEBHOOKS } from "../../contract/limits";
import { type ApiVersion, isApiVersion } from "../../contract/versions";
import { canonicalFilters, sameFilters, toWireFilters } from "../../contract/webhooks/requests";
import type { Webhook, WebhookCreateBody, WireFilter } from "../../contract/webhooks/types";
import type { ServiceClient } from "../client/client";
import { engineIsGone } from "../context/engine-cancel";
import { KeyedLock } from "../context/keyed-lock";
import { contextKey, processContext } from "../context/process";
import { ConflictError, InvalidRequestError } from "../errors/api";
import { requestWords } from "../errors/base";
import { LifecycleError, PendingCreateError } from "../errors/lifecycle";
import { AmbiguousRequestError } from "../errors/transport";
import { clientFor, credentialKey } from "../lifecycle/clients";
import { credentialsHash } from "../lifecycle/credentials-hash";
import * as Listings from "../lifecycle/listings";
import { forgetWebhooks } from "../lifecycle/listings";
import type { ResourceProps } from "../lifecycle/methods";
import { hashSecret } from "../lifecycle/secret-hash";
import { schemaOf } from "../settings/schema-kit";
import { SETTINGS, textOf } from "../settings/table";
import type { Settings } from "../settings/value";
import {
  adoptClaimedError,
  adoptMismatchError,
  adoptNotFoundError,
  domainNotRegisteredError,
  identicalPendingError,
  inputRefusedError,
  pendingMessage,
  quotaError,
  reconcileConflictMessage,
  serviceRefusal,
} from "./messages";
import {
  claim,
  claimedUuids,
  clearPending,
  hasPending,
  identityOf,
  isClaimed,
  notePending,
  type Owner,
  PENDING_ID_PREFIX,
  RECORDED_INPUTS,
  sameIdentity,
  type WebhookIdentity,
  type WebhookInputs,
  type WebhookOutputs,
  type WebhookState,
  webhookInputsSchema,
} from "./resource";

/*
 * The client's webhooks. Here the resource translates the client's wire names (spec 2.6: `webhook_uuid`,
 * `endpoint: {type, value}`, `webhook_owner`, `create_time` or `create_timestamp`) into the camelCase the
 * resource's code, outputs and state use. Nothing else under webhook/ reads a wire name of a webhook.
 */

/** A webhook as the Webhook resource works with it, in one model for both API generations. */
export interface WebhookRecord {
  /** The service's `webhook_uuid`. */
  readonly webhookUuid: string;
  /** Echoed on every delivery; "default" unless set. */
  readonly channel: string;
  /** The HTTPS URL deliveries are posted to (`endpoint.value`). */
  readonly endpoint: string;
  /** The filters as the service sent them, in its order and value/values form. */
  readonly filters: WireFilter[];
  /** Who created it; empty names when the service did not say. */
  readonly owner: Owner;
  /** `create_time` (v2) or `create_timestamp` (v1.4). */
  readonly createTime: Timestamp | undefined;
}

/** `webhook_owner` or `domain_owner` as the resources output it; empty names when the service did not say. */
export function ownerOf(owner: WireOwner | undefined): Owner {
  return { organization: owner?.organization.name ?? "", username: owner?.user?.username ?? "" };
}

/** A webhook of the client, as the resource works with it. */
export function webhookRecord(hook: Webhook): WebhookRecord {
  return {
    webhookUuid: hook.webhook_uuid,
    channel: hook.channel,
    endpoint: hook.endpoint.value,
    filters: hook.filters,
    owner: ownerOf(hook.webhook_owner),
    createTime: hook.create_time ?? hook.create_timestamp,
  };
}

/** The organization's active webhooks (the process's shared listing), as the resource works with them. */
export async function activeWebhooks(client: ServiceClient, options: { fresh?: boolean } = {}) {
  return (await Listings.activeWebhooks(client, options)).map(webhookRecord);
}

/** The create body of the client for a Webhook's inputs. */
function createBody(inputs: WebhookInputs): WebhookCreateBody {
  return {
    endpoint: { type: "url", value: inputs.endpoint },
    secret_key: inputs.secretKey,
    channel: inputs.channel,
    filters: inputs.filters,
  };
}

/** The hostnames of the organization's registered domains (`domain_name`), which a webhook's endpoint must use. */
async function registeredHostnames(client: ServiceClient, options: { fresh?: boolean } = {}) {
  return (await Listings.registeredDomains(client, options)).map((domain) => domain.domain_name);
}

/** A Webhook's checked inputs, parsed with the rules of their API version. */
export function parseInputs(props: ResourceProps): WebhookInputs {
  return webhookInputsSchema(isApiVersion(props.apiVersion) ? props.apiVersion : "2.0").parse(props);
}

/**
 * What tells creates apart that the service could not: the same credentials and the same identity. Creates
 * with equal keys run one at a time and share an attempt note.
 */
export interface CreateKey {
  /** The service and credentials (`credentialKey`). */
  readonly credentials: string;
  /** The identity, as JSON. */
  readonly identity: string;
}

/** The key of creates of `identity` through `client`. */
export function createKey(client: ServiceClient, identity: WebhookIdentity): CreateKey {
  return { credentials: credentialKey(client), identity: JSON.stringify(identity) };
}

/** Everything a create of one Webhook acts on, derived once from its inputs. */
export interface CreatePlan {
  /** The checked inputs, parsed. */
  readonly inputs: WebhookInputs;
  /** The provider's settings: the client's, where the attempt notes are kept, how long to re-list. */
  readonly settings: Settings;
  /** The client of the inputs' connection, or of the provider's settings. */
  readonly client: ServiceClient;
  /** Endpoint, channel and filters: what the service tells webhooks apart by, and what messages name. */
  readonly identity: WebhookIdentity;
  /** The body of the create request. */
  readonly body: WebhookCreateBody;
  /** The key of the create's lock and of its attempt note. */
  readonly key: CreateKey;
  /** The engine's `__provider`, which a pending webhook's state keeps. */
  readonly provider: unknown;
}

/**
 * The plan of a create of `inputs` under the provider's `settings`; `provider` is the `__provider` the engine
 * passed with them.
 */
export function planCreate(settings: Settings, inputs: WebhookInputs, provider: unknown): CreatePlan {
  const client = clientFor(inputs, settings);
  const identity = identityOf(inputs);
  const key = createKey(client, identity);
  return { inputs, settings, client, identity, body: createBody(inputs), key, provider };
}

/** What state records of a webhook the service showed through `client`, spoken to in `apiVersion`. */
export function observed(hook: WebhookRecord, apiVersion: ApiVersion, client: ServiceClient): WebhookOutputs {
  return {
    webhookUuid: hook.webhookUuid,
    endpoint: hook.endpoint,
    channel: hook.channel,
    filters: toWireFilters(canonicalFilters(hook.filters)),
    owner: hook.owner,
    createTime: hook.createTime?.display,
    apiVersion,
    credentialsHash: credentialsHash(client.options),
  };
}

/** The recorded inputs among `source` (inputs, or a state), those it gives. */
export function recordedInputs(source: object): ResourceProps {
  const given = Object.entries(source).filter(
    ([key, value]) => RECORDED_INPUTS.includes(key) && value !== undefined,
  );
  return Object.fromEntries(given);
}

/** What state records of a webhook created or adopted from `inputs`, as the service showed it. */
export function outputsFor(
  hook: WebhookRecord,
  inputs: WebhookInputs,
  client: ServiceClient,
): WebhookOutputs {
  return {
    ...recordedInputs(inputs),
    ...observed(hook, inputs.apiVersion, client),
    secretKeyHash: hashSecret(inputs.secretKey),
  };
}

/** The state of a pending webhook: its configuration, when the create was sent, and `__provider`. */
function pendingState(
  { inputs, client, provider }: CreatePlan,
  pendingSince: string,
  claimedElsewhere: readonly string[],
): ResourceProps {
  return {
    ...recordedInputs(inputs),
    secretKeyHash: hashSecret(inputs.secretKey),
    credentialsHash: credentialsHash(client.options),
    pendingSince,
    claimedElsewhere: [...new Set(claimedElsewhere)],
    // The engine keeps these properties as the resource's state; later calls need the provider in it.
    __provider: provider,
  };
}

/*
 * Creates that a provider process sent and never saw through, kept on disk beside Pulumi's own files.
 *
 * Why: a second Ctrl-C (or a killed CI job) ends `pulumi up` while a create is in flight. The engine
 * records only a pending operation, and the next `pulumi up` asks the provider to create the resource
 * again, with nothing that says it is a retry. The first create may have landed; creating again would
 * leave a webhook that no state knows of, delivering events and holding one of the organization's ten
 * slots. So each create is noted here before it is sent and forgotten once its outcome is known (recorded
 * in state either way); a note left by a process that is gone means the next create of the same
 * configuration first looks for the webhook that attempt may have made.
 *
 * The notes live under $PULUMI_HOME (default ~/.pulumi), so they help a rerun on the same machine; a
 * rerun elsewhere finds none and behaves as before.
 */

/** A note older than this is taken as settled some other way (a person cleaned up), and dropped. */
const NOTE_TTL_MS = 24 * 60 * 60 * 1000;

interface AttemptNote {
  /** When the create was sent, on the service's clock (epoch ms). */
  readonly since: number;
  /** The provider process that sent it. */
  readonly pid: number;
}

/** Where the attempt notes are kept: under PULUMI_HOME, as the provider's `settings` have it. */
function notesDir(settings: Settings): string {
  return join(settings.pulumiHome || join(homedir(), ".pulumi"), "service-pulumi", "create-attempts");
}

/** One file per organization's credentials and configuration; it names neither (a hash does). */
function noteFile(settings: Settings, key: CreateKey): string {
  const name = createHash("sha256").update(key.credentials).update(key.identity).digest("hex");
  return join(notesDir(settings), `${name}.json`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The note of an earlier create of this configuration whose process ended before it knew the outcome.
 * A note of a process still running is another run's create in flight, not an interrupted one.
 */
function interruptedAttempt(settings: Settings, key: CreateKey, now: number): AttemptNote | undefined {
  let note: AttemptNote;
  try {
    note = JSON.parse(readFileSync(noteFile(settings, key), "utf8")) as AttemptNote;
  } catch {
    return undefined;
  }
  if (now - note.since > NOTE_TTL_MS) {
    forgetAttempt(settings, key);
    return undefined;
  }
  return note.pid !== process.pid && !isRunning(note.pid) ? note : undefined;
}

/** Notes a create about to be sent; an earlier interrupted attempt's time is kept, being the earliest. */
function noteAttempt(settings: Settings, key: CreateKey, since: number): void {
  try {
    mkdirSync(notesDir(settings), { recursive: true, mode: 0o700 });
    writeFileSync(noteFile(settings, key), JSON.stringify({ since, pid: process.pid } satisfies AttemptNote));
  } catch {
    // A read-only home costs only this protection, never the create.
  }
}

/** Forgets the note once the outcome is known (created, refused, or kept pending in state). */
function forgetAttempt(settings: Settings, key: CreateKey): void {
  // With the engine gone, the outcome never reaches state: the next run must find the note and reconcile.
  if (engineIsGone()) return;
  rmSync(noteFile(settings, key), { force: true });
}

/*
 * Finding out what a create whose response was lost did. The service has no idempotency key and cannot tell
 * two webhooks with the same endpoint, channel and filters apart, so the only evidence is the active
 * listing: a matching webhook that appeared after the create was sent, and that no other resource stands
 * for, is this one's.
 */

/** The Date header has whole seconds, and the service stamps the create somewhere inside the request. */
const CLOCK_MARGIN_MS = 2_000;

export interface Search {
  readonly client: ServiceClient;
  readonly identity: WebhookIdentity;
  /** When the create was sent, on the service's clock. */
  readonly since: number;
  /** Webhooks known to belong to other resources. */
  readonly exclude: readonly string[];
}

/** Matching webhooks that appeared since the attempt and no other resource stands for. */
export function candidatesIn(
  listed: readonly WebhookRecord[],
  search: Omit<Search, "client">,
): WebhookRecord[] {
  return listed.filter((hook) => {
    if (isClaimed(hook.webhookUuid) || search.exclude.includes(hook.webhookUuid)) return false;
    if (!sameIdentity(identityOf(hook), search.identity)) return false;
    const created = hook.createTime === undefined ? undefined : hook.createTime.epoch * 1000;
    return created === undefined || created >= search.since - CLOCK_MARGIN_MS;
  });
}

/** The candidates in a fresh listing. */
export async function candidates(search: Search): Promise<WebhookRecord[]> {
  return candidatesIn(await activeWebhooks(search.client, { fresh: true }), search);
}

/** The service-clock time of a local moment, using the offset the client's answers have shown. */
function serviceTime(client: ServiceClient, localMs: number): number {
  return client.serverNow() - (processContext().clock.now() - localMs);
}

/**
 * Re-lists until a candidate appears or `windowMs` has passed, at growing intervals: a create the service
 * applies late (after the client's timeout) shows up here rather than as a duplicate on the next run.
 * Undefined when no listing succeeded at all.
 */
export async function awaitCandidates(
  search: Omit<Search, "since"> & { readonly sentAtLocal: number; readonly since?: number },
  windowMs: number,
): Promise<{ found: WebhookRecord[] | undefined; since: number }> {
  const { clock } = processContext();
  const deadline = clock.now() + windowMs;
  let found: WebhookRecord[] | undefined;
  let since = search.since ?? serviceTime(search.client, search.sentAtLocal);
  for (let pause = 1_000; ; pause *= 2) {
    try {
      const listed = await activeWebhooks(search.client, { fresh: true });
      // Each answer refines the service's clock offset; the time kept is what later runs compare with.
      since = search.since ?? serviceTime(search.client, search.sentAtLocal);
      found = candidatesIn(listed, { ...search, since });
    } catch {
      // The listing failed too: the outcome stays unknown until one succeeds.
    }
    const left = deadline - clock.now();
    if ((found && found.length > 0) || left <= 0) return { found, since };
    await clock.sleep(Math.min(pause, left));
  }
}

const { reconcile: RECONCILE } = SETTINGS;

/** Environment variable: seconds to re-list after a create whose answer was lost (default 30). */
export const RECONCILE_ENV = RECONCILE.env;

/**
 * How long to re-list after an ambiguous create. A lost answer (timeout, dropped connection) may belong to
 * a request the service is still working on, so it gets the whole window; an answered 5xx means the
 * service has finished with the request, so a short look suffices. SERVICE_RECONCILE_SECONDS is read from the
 * provider's `settings`.
 */
export function reconcileWindowMs(answered: boolean, settings: Settings): number {
  const configured = schemaOf(RECONCILE).safeParse(textOf(settings.env.reconcile));
  const window = (configured.success ? configured.data : RECONCILE.default) * 1000;
  return answered ? Math.min(window, 5_000) : window;
}

const CREATE_LOCK = contextKey("webhook create lock", () => new KeyedLock());

/** Serializes creates and reconciliations of indistinguishable webhooks of one organization. */
function exclusively<T>(key: CreateKey, task: () => Promise<T>): Promise<T> {
  return processContext().get(CREATE_LOCK).run(`${key.credentials}\u0000${key.identity}`, task);
}

/** The planned webhook's answer once `hook` is known to be it, claimed for it. */
function owned(hook: WebhookRecord, plan: CreatePlan) {
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
 * Creates the webhook of `inputs`, or adopts the one named by adoptWebhookUuid: the inputs are planned
 * once, under the provider's `settings`, then the plan is acted on. `provider` is the `__provider` the engine
 * passed with them.
 */
export function createWebhook(settings: Settings, inputs: WebhookInputs, provider: unknown) {
  const plan = planCreate(settings, inputs, provider);
  if (inputs.adoptWebhookUuid !== undefined) return adopt(plan, inputs.adoptWebhookUuid);
  return createPlanned(plan);
}

/** Adopts the active webhook `uuid` for the planned one, once its configuration is seen to match. */
async function adopt(plan: CreatePlan, uuid: string) {
  const { client, inputs } = plan;
  const hook = (await activeWebhooks(client, { fresh: true })).find((w) => w.webhookUuid === uuid);
  if (!hook) throw adoptNotFoundError(uuid);
  if (isClaimed(uuid)) throw adoptClaimedError(uuid);
  const problems = [
    hook.endpoint !== inputs.endpoint ? `endpoint is ${hook.endpoint}, not ${inputs.endpoint}` : undefined,
    hook.channel !== inputs.channel ? `channel is ${hook.channel}, not ${inputs.channel}` : undefined,
    !sameFilters(hook.filters, inputs.filters) ? `filters are ${JSON.stringify(hook.filters)}` : undefined,
  ].filter((p): p is string => p !== undefined);
  if (problems.length > 0) throw adoptMismatchError(uuid, problems);
  return owned(hook, plan);
}

/**
 * Creates the planned webhook. Creates of webhooks the service could not tell apart run one at a time,
 * and none starts while such a create is pending.
 */
function createPlanned(plan: CreatePlan) {
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
  noteAttempt(plan.settings, plan.key, earlier.since ?? client.serverNow());
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
    const windowMs = reconcileWindowMs(error.status !== undefined, plan.settings);
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
    forgetAttempt(plan.settings, plan.key);
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
  const note = interruptedAttempt(plan.settings, plan.key, client.serverNow());
  if (!note) return {};
  const exclude = [...(prior.claimedElsewhere ?? [])];
  // The service may still be working on that request, as after a lost answer: look for as long.
  const left = note.since + reconcileWindowMs(false, plan.settings) - client.serverNow();
  const search = { client, identity, since: note.since, exclude };
  const found =
    left > 0
      ? ((await awaitCandidates({ ...search, sentAtLocal: processContext().clock.now() }, left)).found ?? [])
      : await candidates(search);
  if (found.length === 1) {
    forgetAttempt(plan.settings, plan.key);
    return { hook: found[0] };
  }
  if (found.length > 1) {
    forgetAttempt(plan.settings, plan.key);
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
 * the webhook that state recorded as pending; the create, if one is needed, is planned from `news` under the
 * provider's `settings`.
 */
export async function settle(
  settings: Settings,
  id: string,
  old: WebhookState,
  news: ResourceProps,
): Promise<{ outs: WebhookOutputs }> {
  const plan = planCreate(settings, parseInputs(news), news.__provider);
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
